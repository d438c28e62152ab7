// acquirePgLock / withPgLock: Lockboard's lock on PostgreSQL (lock.ts) taken in one INSERT … ON CONFLICT statement
// that also takes over a dead holder's row; while a live session holds it, wait with backoff until timeoutMs.
import { hostname } from 'node:os';
import { LockOptionsError } from '../../errors';
import { runHolding } from '../../holding/hold';
import { defaultIdentity, validateLockName, type LockRequest } from '../../holding/options';
import { waitForLock } from '../../holding/wait';
import type { LockInfo } from '../../types';
import type { Queryable } from './tables';
import { initLockTables, PgLock } from './lock';
import { ident } from './tables';

export interface PgAcquireOptions extends LockRequest {
  /** A dedicated pg Client (not a Pool): the lock lives as long as this connection's session. */
  client: Queryable;
  /** How often the holder checks its row is still there (an operator may have released it); default 5 s. */
  checkIntervalMs?: number;
  schema?: string;
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
