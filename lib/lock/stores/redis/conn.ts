// The one place the Redis store talks to Redis: raw commands through a node-redis client or cluster (the caller's),
// SCAN over every master (never KEYS), and the server's clock from TIME. Commands issued together are pipelined by
// node-redis (one round trip per batch). A failed connection is reported in Redis's words (unreachable.ts).
import { namesOf } from './byte-keys';
import { redisUnreachable } from './unreachable';

/** A command's argument: text, or a key's exact bytes (byte-keys.ts). */
export type RedisArg = string | Buffer;
/** node-redis's RESP type mapping for bulk strings (RESP_TYPES.BLOB_STRING, `$`): as Buffers, the key's bytes. */
const AS_BYTES = { typeMapping: { 36: Buffer } };

/** A node-redis client (`createClient`) or cluster (`createCluster`), as far as Lockboard uses them. */
export interface RedisClientLike {
  sendCommand(...args: never[]): Promise<unknown>;
}

type Node = { sendCommand(args: RedisArg[], options?: object): Promise<unknown> };

/**
 * node-redis gives every command its own 5 s timer (an AbortSignal.timeout, alive 5 s whatever the reply): a listing
 * that pipelines 20 000 commands a page kept ~30 000 timers alive and grew the heap by gigabytes at a million keys. A
 * batch's commands go without one; the batch has one deadline instead.
 */
const UNTIMED = { timeout: 0 };
/** A SCAN's reply as key bytes, without node-redis's timer (the call has the batch's deadline instead). */
const SCAN_OPTIONS = { ...AS_BYTES, ...UNTIMED };
/** A batch's deadline: a server that stops answering (paused, partitioned) fails the listing in its words. */
const BATCH_TIMEOUT_MS = 10_000;

function withDeadline<T>(sent: Promise<T>, ms: number, source: string | undefined): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = Object.assign(new Error(`no answer within ${ms / 1000} s`), { code: 'ETIMEDOUT' });
      reject(redisUnreachable(err, source));
    }, ms);
  });
  return Promise.race([sent, late]).finally(() => clearTimeout(timer));
}

interface ClusterLike {
  masters: unknown[];
  nodeClient(node: unknown): Promise<Node>;
  sendCommand(
    firstKey: RedisArg | undefined,
    isReadonly: boolean | undefined,
    args: RedisArg[],
    options?: object,
  ): Promise<unknown>;
}

export class RedisConn {
  private offsetMs = 0;
  roundTrips = 0;

  /** `source`: as shown, without credentials, for the words of a failed connection. */
  constructor(
    readonly client: RedisClientLike,
    private readonly source?: string,
    private readonly batchTimeoutMs = BATCH_TIMEOUT_MS,
  ) {}

  /** Every command goes out here: a connection error becomes "Cannot reach Redis at …". */
  private send(sent: () => Promise<unknown>): Promise<unknown> {
    let p: Promise<unknown>;
    try {
      p = sent();
    } catch (err) {
      p = Promise.reject(err);
    }
    return p.catch((err: unknown) => {
      throw redisUnreachable(err, this.source, (this.client as { isReady?: boolean }).isReady === false);
    });
  }

  get isCluster(): boolean {
    return Array.isArray((this.client as unknown as Partial<ClusterLike>).masters);
  }

  /** One command; on a cluster it goes to the master of `key`. `untimed`: no timer of its own (a batch's, instead). */
  cmd(key: RedisArg | undefined, args: RedisArg[], untimed?: boolean): Promise<unknown> {
    this.roundTrips++;
    const o = untimed ? UNTIMED : undefined;
    if (this.isCluster)
      return this.send(() => (this.client as unknown as ClusterLike).sendCommand(key, false, args, o));
    return this.send(() => (this.client as unknown as Node).sendCommand(args, o));
  }

  /**
   * Commands sent together (node-redis writes them in one go): one round trip per node. With `onError`, a command's
   * error reply (e.g. WRONGTYPE) becomes its result instead of failing the batch.
   */
  pipeline(commands: [key: RedisArg, args: RedisArg[]][], onError?: (err: unknown) => unknown): Promise<unknown[]> {
    if (commands.length === 0) return Promise.resolve([]);
    const sent = Promise.all(
      commands.map(([key, args]) => (onError ? this.cmd(key, args, true).catch(onError) : this.cmd(key, args, true))),
    );
    this.roundTrips -= Math.max(0, commands.length - 1);
    return withDeadline(sent, this.batchTimeoutMs, this.source);
  }

  /** The masters a SCAN walks (one on a single server). */
  private async scanNodes(): Promise<Node[]> {
    const nodes = this.isCluster
      ? await (async () => {
          const cluster = this.client as unknown as ClusterLike;
          return (await this.send(() => Promise.all(cluster.masters.map((m) => cluster.nodeClient(m))))) as Node[];
        })()
      : [this.client as unknown as Node];
    return nodes.map((n) => ({ sendCommand: (args, options) => this.send(() => n.sendCommand(args, options)) }));
  }

  /**
   * One page of a SCAN over every master: SCAN calls of `count` from `token` (master index and cursor) until `budget`
   * keys are in hand or the walk ends. Resolves to the keys' names (SCAN may repeat one; keys read as bytes, a name
   * escaped where they are not UTF-8, with those bytes in `bytes`) and the next token (none: done).
   */
  async scanPage(
    match: string,
    token: string | undefined,
    o: { count: number; budget: number },
  ): Promise<{ keys: string[]; bytes: Map<string, Buffer>; next?: string }> {
    const nodes = await this.scanNodes();
    const [at, from] = parseScanToken(token, nodes.length);
    let node = at;
    let cursor = from;
    const raw: Buffer[] = [];
    while (node < nodes.length && raw.length < o.budget) {
      this.roundTrips++;
      const args = ['SCAN', cursor, 'MATCH', match, 'COUNT', String(o.count)];
      // the batch's deadline, not node-redis's 5 s timer: that timer fired on a console whose event loop a
      // million-lock pass on a busy machine held past it, the pass failing as "Error" (a TimeoutError has no message)
      // at every try, never complete (#63)
      const sent = nodes[node]!.sendCommand(args, SCAN_OPTIONS);
      const [next, batch] = (await withDeadline(sent, this.batchTimeoutMs, this.source)) as [Buffer, Buffer[]];
      for (const k of batch) raw.push(Buffer.isBuffer(k) ? k : Buffer.from(String(k)));
      cursor = String(next);
      if (cursor === '0') node++;
    }
    const { names: keys, bytes } = namesOf(raw);
    return node < nodes.length ? { keys, bytes, next: `${node}:${cursor}` } : { keys, bytes };
  }

  /** The number of keys in the database (DBSIZE, summed over masters): the estimate a listing's progress shows. */
  async dbsize(): Promise<number> {
    let total = 0;
    for (const node of await this.scanNodes()) {
      this.roundTrips++;
      total += Number(await node.sendCommand(['DBSIZE']));
    }
    return total;
  }

  /**
   * Every key matching `match` (and of `type`, when given), master by master (replicas duplicate keys); SCAN may
   * repeat a key: deduplicated.
   */
  async scan(match: string, count = 1000, type?: string): Promise<string[]> {
    const nodes = await this.scanNodes();
    const keys = new Set<string>();
    for (const node of nodes) {
      let cursor = '0';
      do {
        this.roundTrips++;
        const args = ['SCAN', cursor, 'MATCH', match, 'COUNT', String(count), ...(type ? ['TYPE', type] : [])];
        const [next, batch] = (await node.sendCommand(args)) as [string, string[]];
        for (const k of batch) keys.add(String(k));
        cursor = String(next);
      } while (cursor !== '0');
    }
    return [...keys];
  }

  /** The server's time in milliseconds (TIME), and the offset kept for `now()`. */
  async time(): Promise<number> {
    const sentAt = Date.now();
    const sent = this.cmd(undefined, ['TIME'], true);
    const [s, us] = (await withDeadline(sent, this.batchTimeoutMs, this.source)) as [string, string];
    const server = Number(s) * 1000 + Math.floor(Number(us) / 1000);
    this.offsetMs = server - (sentAt + Date.now()) / 2;
    return server;
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }
}

/** A listing page token (`master:cursor`); a token of another shape starts from the beginning. */
function parseScanToken(token: string | undefined, masters: number): [number, string] {
  const m = token ? /^(\d+):(\d+)$/.exec(token) : null;
  if (!m || Number(m[1]) >= masters) return [0, '0'];
  return [Number(m[1]), m[2]!];
}
