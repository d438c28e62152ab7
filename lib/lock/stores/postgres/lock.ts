// Lockboard's lock on PostgreSQL: the unique-index design done right. A row per held lock names the holder's backend
// (pid and backend start to the microsecond, so a reused pid is never mistaken for the holder); liveness is the
// holder's own connection (no TTL to guess); a dead holder's row is taken over in the same INSERT … ON CONFLICT
// statement; the fencing token comes from a sequence; a release records the outcome (and the problem and details when
// the block threw) in lockboard_released, beside the locks. The lock holds as long as the given connection lives.
import { hostname } from 'node:os';
import { LockLostError, LockOptionsError } from '../../errors';
import { runHolding } from '../../holding/hold';
import { defaultIdentity, validateLockName } from '../../holding/options';
import { waitForLock } from '../../holding/wait';
import type { LockInfo } from '../../types';
import type { Queryable } from './advisory';
import { ident } from './tables';

export interface PgAcquireOptions {
  /** A dedicated pg Client (not a Pool): the lock lives as long as this connection's session. */
  client: Queryable;
  name: string;
  identity?: string;
  purpose?: string;
  /** undefined = wait without limit; 0 = try once. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** How often the holder checks its row is still there (an operator may have released it); default 5 s. */
  checkIntervalMs?: number;
  schema?: string;
  onWait?: (holder: LockInfo) => void;
}

/** `lockboard postgres init`: Lockboard's own tables (never anyone else's), created only if absent. */
export async function initLockTables(db: Queryable, schema = 'public'): Promise<void> {
  const s = ident(schema);
  await db.query(`CREATE TABLE IF NOT EXISTS ${s}.lockboard_locks (
    name text PRIMARY KEY, pid integer NOT NULL, backend_us text NOT NULL, identity text NOT NULL, host text,
    purpose text, token bigint NOT NULL, acquired_at timestamptz NOT NULL DEFAULT now())`);
  await db.query(`CREATE TABLE IF NOT EXISTS ${s}.lockboard_released (
    name text NOT NULL, token bigint NOT NULL, identity text, acquired_at timestamptz, released_at timestamptz NOT NULL DEFAULT now(),
    problem text, details text)`);
  await db.query(`CREATE SEQUENCE IF NOT EXISTS ${s}.lockboard_fence`);
}

const acquireSql = (s: string) => `
INSERT INTO ${s}.lockboard_locks AS l (name, pid, backend_us, identity, host, purpose, token, acquired_at)
SELECT $1, pg_backend_pid(), (extract(epoch from a.backend_start) * 1000000)::bigint::text, $2, $3, $4, nextval('${s}.lockboard_fence'), now()
FROM pg_stat_activity a WHERE a.pid = pg_backend_pid()
ON CONFLICT (name) DO UPDATE SET pid = EXCLUDED.pid, backend_us = EXCLUDED.backend_us, identity = EXCLUDED.identity,
  host = EXCLUDED.host, purpose = EXCLUDED.purpose, token = EXCLUDED.token, acquired_at = EXCLUDED.acquired_at
WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity b WHERE b.pid = l.pid
                  AND (extract(epoch from b.backend_start) * 1000000)::bigint::text = l.backend_us)
RETURNING token::text, (xmax <> 0) AS took_over`;

export class PgLock extends EventTarget {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private done = false;

  constructor(
    private readonly o: PgAcquireOptions & { schema: string },
    readonly fencingToken: string,
    readonly tookOver: boolean,
  ) {
    super();
    this.signal = this.controller.signal;
    this.timer = setInterval(() => void this.check(), o.checkIntervalMs ?? 5_000);
  }

  get name(): string {
    return this.o.name;
  }

  /** Still ours? A missing row means an operator released it; a failed query, that our session is gone. */
  async check(): Promise<boolean> {
    if (this.done) return false;
    try {
      const { rowCount } = await this.o.client.query(
        `SELECT 1 FROM ${ident(this.o.schema)}.lockboard_locks WHERE name = $1 AND token::text = $2`,
        [this.o.name, this.fencingToken],
      );
      if (rowCount) return true;
      this.lose('released-by-operator', 'its row was released');
    } catch (err) {
      this.lose('refresh-failed', `the holder's connection failed: ${(err as Error).message}`);
    }
    return false;
  }

  private lose(reason: 'released-by-operator' | 'refresh-failed', detail: string): void {
    if (this.done) return;
    this.done = true;
    clearInterval(this.timer);
    this.controller.abort(new LockLostError(this.o.name, reason, detail));
  }

  /** Deletes our row and records the release (with the problem and details when the work failed), in one statement. */
  async release(failure?: { problem: string; details: string }): Promise<'released' | 'already-lost'> {
    if (this.done) return 'already-lost';
    this.done = true;
    clearInterval(this.timer);
    const s = ident(this.o.schema);
    const { rowCount } = await this.o.client.query(
      `WITH gone AS (DELETE FROM ${s}.lockboard_locks WHERE name = $1 AND token::text = $2 RETURNING name, token, identity, acquired_at)
       INSERT INTO ${s}.lockboard_released (name, token, identity, acquired_at, problem, details)
       SELECT name, token, identity, acquired_at, $3, $4 FROM gone`,
      [this.o.name, this.fencingToken, failure?.problem ?? null, failure?.details ?? null],
    );
    return rowCount ? 'released' : 'already-lost';
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }
}

export async function acquirePgLock(o: PgAcquireOptions): Promise<PgLock> {
  if (!o?.client || typeof o.client.query !== 'function')
    throw new LockOptionsError('Expected `client` to be a connected pg Client');
  validateLockName(o.name);
  const schema = o.schema ?? 'public';
  await initLockTables(o.client, schema);
  const identity = o.identity ?? defaultIdentity();
  return waitForLock(
    o,
    async () => {
      const { rows } = await o.client.query<{ token: string; took_over: boolean }>(acquireSql(ident(schema)), [
        o.name,
        identity,
        hostname(),
        o.purpose ?? null,
      ]);
      return rows[0] ? new PgLock({ ...o, schema }, rows[0].token, rows[0].took_over) : null;
    },
    async () => {
      const { rows } = await o.client.query<{ identity: string; acquired_at: Date; token: string }>(
        `SELECT identity, acquired_at, token::text FROM ${ident(schema)}.lockboard_locks WHERE name = $1`,
        [o.name],
      );
      const h = rows[0];
      return h
        ? ({
            name: o.name,
            identity: h.identity,
            createdAt: h.acquired_at.toISOString(),
            generation: h.token,
          } as LockInfo)
        : null;
    },
  );
}

/** Runs `fn` holding the lock; when it throws, the release records the error's type and details in lockboard_released. */
export async function withPgLock<T>(o: PgAcquireOptions, fn: (lock: PgLock) => Promise<T>): Promise<T> {
  const lock = await acquirePgLock(o);
  return runHolding(lock, fn, async (outcome) => {
    const e = outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error));
    await lock.release(outcome.failed ? { problem: e.name, details: e.message } : undefined);
  });
}
