// Which client owns an ephemeral node: a Stat names only the session (ephemeralOwner). Its client address and session
// timeout come from the server's four-letter `cons` (per connection, on that server), which answers only where the
// operator listed it in 4lw.commands.whitelist: otherwise the view says so instead of guessing.
import { connect } from 'node:net';
import type { Reach } from './ensemble';
import type { SessionMemory } from './session-memory';

export interface SessionInfo {
  client: string;
  timeoutMs: number;
  /** The connection's last operation (`lop`: PING, GETD, …) and when it was established (server wall clock). */
  lop?: string;
  estMs?: number;
  /**
   * How long before that server's latest answer to any connection this one was last answered. `lresp` is the
   * server's monotonic clock, comparable only with itself: its latest answer (often to this store's own reads) is
   * the nearest thing to the server's "now".
   */
  silentMs?: number;
}

export interface Sessions {
  bySid: Map<string, SessionInfo>;
  /** Why some servers gave no answer (not whitelisted, unreachable), for the view's note. */
  missing?: string;
  /** The servers asked (the members the source lists). */
  asked?: string[];
  /** Whether those are the whole ensemble (ensemble.ts), and the servers' session bounds. */
  reach?: Reach;
  /** The store's memory of sessions across passes (session-memory.ts): how long an absent one has been absent. */
  memory?: SessionMemory;
}

/** One four-letter word to one server: its whole answer, or an Error. */
export function fourLetters(hostPort: string, word: string, timeoutMs = 1_000): Promise<string> {
  const at = hostPort.lastIndexOf(':');
  const host = hostPort.slice(0, at).replace(/^\[|\]$/g, '');
  const port = Number(hostPort.slice(at + 1));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host, port }, () => socket.end(word));
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`${word} timed out on ${hostPort}`)));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** `cons` lines: ` /127.0.0.1:54872[1](queued=0,…,sid=0x1000…,…,to=10000,…)`. */
export function parseCons(text: string): Map<string, SessionInfo> {
  const out = new Map<string, SessionInfo>();
  const ms = (v: string | undefined) => (v && /^\d+$/.test(v) && v !== '0' ? Number(v) : undefined);
  const rows: [string, SessionInfo, number | undefined][] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*\/?(\S+?)\[\d+\]\((.*)\)\s*$/.exec(line);
    if (!m) continue;
    const fields = Object.fromEntries(m[2]!.split(',').map((kv) => kv.split('=') as [string, string]));
    if (!fields.sid || !fields.to) continue;
    const estMs = ms(fields.est);
    const info = { client: m[1]!, timeoutMs: Number(fields.to), ...(fields.lop ? { lop: fields.lop } : {}) };
    rows.push([BigInt(fields.sid).toString(16), { ...info, ...(estMs ? { estMs } : {}) }, ms(fields.lresp)]);
  }
  const latest = Math.max(0, ...rows.map(([, , lresp]) => lresp ?? 0));
  for (const [sid, info, lresp] of rows) out.set(sid, lresp ? { ...info, silentMs: latest - lresp } : info);
  return out;
}

/** Every server's `cons`, merged: a session is connected to one server of the ensemble. */
export async function readSessions(hosts: string): Promise<Sessions> {
  const bySid = new Map<string, SessionInfo>();
  const missing: string[] = [];
  await Promise.all(
    hosts.split(',').map(async (h) => {
      try {
        const text = await fourLetters(h, 'cons');
        if (/not in the whitelist|not executed/i.test(text)) missing.push(`${h} does not whitelist cons`);
        else for (const [sid, info] of parseCons(text)) bySid.set(sid, info);
      } catch (err) {
        missing.push(`${h}: ${(err as Error).message}`);
      }
    }),
  );
  return { bySid, asked: hosts.split(','), ...(missing.length ? { missing: missing.join('; ') } : {}) };
}

/** A session id as ZooKeeper prints it: 0x + hex. */
export const sessionLabel = (sid: bigint): string => `0x${sid.toString(16)}`;
