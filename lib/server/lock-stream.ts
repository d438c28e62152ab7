// The lock stream behind GET /api/locks/stream (Server-Sent Events): a `snapshot` of the sources' locks, a `change`
// for each batch of locks added, changed or gone (from one shared watcher per source), a `tick` with the server's
// time every 15 s (also the keep-alive), and a `reset` followed by a new snapshot when this client missed events (it
// reconnected with a Last-Event-ID, or read too slowly and its queue overflowed). The stream ends at the session's
// expiry, when the user loses the role, and after LOCKBOARD_STREAM_MAX (4m: under common proxy and Cloud Run
// timeouts); the browser reconnects by itself and the reconnect is checked like any request.
import 'server-only';
import { randomBytes } from 'node:crypto';
import type { LockView } from '@/lib/lock/store';
import { resolveRole } from './auth';
import { env } from './env';
import type { RouteUser } from './http';
import { consoleView } from './locks';
import { metrics } from './metrics';
import { isStopping, onStop } from './shutdown';
import type { Source } from './sources';
import { watcherFor, type SourceChange } from './watch';

const TICK_MS = 15_000;
/** Queued chunks a client may fall behind by before its changes are dropped for a reset. */
const MAX_QUEUED = 256;
const EPOCH = randomBytes(4).toString('hex'); // this process: an event id from another one means events were missed

/**
 * Open streams end when the process is told to stop: Next.js closes its server gracefully, waiting for every open
 * request, and a stream would hold a deploy (or the demo's stop) for minutes. Browsers reconnect elsewhere.
 */
const open = new Set<() => void>();
const endAll = () => {
  for (const end of [...open]) end();
};

export function lockStream(
  selection: { id: string; sources: Source[] },
  user: RouteUser,
  o: { lastEventId: string | null; signal: AbortSignal },
): ReadableStream<Uint8Array> {
  const operator = user.role === 'operator';
  const shown = (s: Source, lock: LockView) => consoleView(s, lock, operator);
  const encoder = new TextEncoder();
  const stops: (() => void)[] = [];
  const timers: NodeJS.Timeout[] = [];
  let closed = false;
  let behind = false;
  let seq = 0;
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const cleanup = () => {
    if (closed) return;
    closed = true;
    open.delete(cleanup);
    metrics.streams.dec();
    for (const stop of stops) stop();
    for (const t of timers) clearTimeout(t);
    try {
      controller.close();
    } catch {
      // already closed by the client going away
    }
  };
  const write = (text: string) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      cleanup();
    }
  };
  const send = (name: string, data: unknown) => {
    metrics.sent.inc({ event: name });
    write(`id: ${EPOCH}-${++seq}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const snapshot = () => {
    const locks: ReturnType<typeof shown>[] = [];
    let skipped = 0;
    let serverTime = '';
    for (const s of selection.sources) {
      const now = watcherFor(s).current();
      locks.push(...now.locks.map((l) => shown(s, l)));
      skipped += now.skipped;
      if (now.serverTime > serverTime) serverTime = now.serverTime;
    }
    send('snapshot', { source: selection.id, serverTime, skipped, locks });
  };
  const onChange = (s: Source) => (change: SourceChange) => {
    if (behind) return;
    if ((controller.desiredSize ?? 0) < -MAX_QUEUED) {
      behind = true; // dropped from here: pull() sends a reset and a fresh snapshot once the client has read
      return;
    }
    send('change', { ...change, bucket: s.bucketId, upsert: change.upsert.map((l) => shown(s, l)) });
  };

  return new ReadableStream<Uint8Array>({
    async start(c) {
      controller = c;
      metrics.streams.inc();
      open.add(cleanup);
      onStop(endAll);
      if (isStopping()) return (write('retry: 2000\n\n'), cleanup()); // the route closes this connection: see there
      o.signal.addEventListener('abort', cleanup, { once: true });
      write('retry: 1000\n\n'); // headers go out with the first chunk
      const ends = Math.min(Date.now() + (env().LOCKBOARD_STREAM_MAX ?? 240_000), user.expiresAt ?? Infinity);
      timers.push(setTimeout(cleanup, Math.max(0, ends - Date.now())));
      const tick = () => {
        // off the lists, or another role now: the reconnect is judged again (403, or what the new role may see)
        if (resolveRole(user.email) !== user.role) return cleanup();
        send('tick', { serverTime: latestTime(selection.sources) });
        timers.push(setTimeout(tick, TICK_MS));
      };
      timers.push(setTimeout(tick, TICK_MS));
      try {
        for (const s of selection.sources) stops.push((await watcherFor(s).subscribe(onChange(s))).stop);
      } catch (err) {
        send('failure', { message: `Could not list ${selection.id}: ${(err as Error).message}` });
        return cleanup();
      }
      if (o.lastEventId) {
        // A reconnect: what happened in between is not replayed; the client starts again from this snapshot
        metrics.resets.inc();
        send('reset', { reason: 'reconnected' });
      }
      snapshot();
    },
    pull() {
      if (!behind || closed) return;
      behind = false;
      metrics.resets.inc();
      send('reset', { reason: 'fell behind' });
      snapshot();
    },
    cancel() {
      cleanup();
    },
  });
}

function latestTime(sources: Source[]): string {
  let latest = '';
  for (const s of sources) {
    const t = watcherFor(s).current().serverTime;
    if (t > latest) latest = t;
  }
  return latest;
}
