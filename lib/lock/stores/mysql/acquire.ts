// acquireMysqlLock / withMysqlLock: Lockboard's named lock taken on a dedicated connection (GET_LOCK(name, 0), then
// the shared wait: reads of the holder with backoff until timeoutMs), its fencing token from lockboard_fence.
import { LockOptionsError } from '../../errors';
import { runHolding } from '../../holding/hold';
import { validateLockName } from '../../holding/options';
import type { LockInfo } from '../../types';
import { waitForLock } from '../../holding/wait';
import { MysqlAuditTrail } from './audit';
import type { Db } from './client';
import { FENCE_DDL, MysqlLock, namedLockOf } from './lock';

export interface MysqlAcquireOptions {
  /** A dedicated connection (not a pool): the lock lives exactly as long as this connection. */
  db: Db;
  name: string;
  /** undefined = wait without limit; 0 = try once. */
  timeoutMs?: number;
  signal?: AbortSignal;
  checkIntervalMs?: number;
  onWait?: (holder: LockInfo) => void;
  /** Record the release in lockboard_audit (default true). */
  audit?: boolean;
}

async function nextToken(db: Db, lock: string): Promise<string> {
  await db.run(FENCE_DDL);
  await db.run(
    'INSERT INTO lockboard_fence (name, token) VALUES (?, LAST_INSERT_ID(1)) ON DUPLICATE KEY UPDATE token = LAST_INSERT_ID(token + 1)',
    [lock],
  );
  const [r] = await db.rows<{ t: string }>('SELECT CAST(LAST_INSERT_ID() AS CHAR) AS t');
  return r!.t;
}

async function holderOf(db: Db, name: string, lock: string): Promise<LockInfo | null> {
  const [r] = await db.rows<{ id: string | null; who: string | null; t: string | null }>(
    `SELECT CAST(IS_USED_LOCK(?) AS CHAR) AS id,
            (SELECT CONCAT(USER, '@', HOST) FROM information_schema.PROCESSLIST WHERE ID = IS_USED_LOCK(?)) AS who,
            (SELECT CAST(UNIX_TIMESTAMP(NOW(3)) - TIME AS CHAR) FROM information_schema.PROCESSLIST WHERE ID = IS_USED_LOCK(?)) AS t`,
    [lock, lock, lock],
  );
  if (!r?.id) return null;
  return {
    name,
    identity: r.who ?? `connection ${r.id}`,
    createdAt: new Date(Number(r.t ?? Date.now() / 1000) * 1000).toISOString(),
    generation: r.id,
  } as LockInfo;
}

export async function acquireMysqlLock(o: MysqlAcquireOptions): Promise<MysqlLock> {
  if (!o?.db || typeof o.db.rows !== 'function') throw new LockOptionsError('Expected `db` to be a MySQL connection');
  validateLockName(o.name);
  const lock = namedLockOf(o.name);
  const trail = o.audit === false ? undefined : new MysqlAuditTrail(o.db);
  return waitForLock(
    o,
    async () => {
      const [r] = await o.db.rows<{ got: number | null }>('SELECT GET_LOCK(?, 0) AS got', [lock]);
      if (Number(r?.got) !== 1) return null;
      const token = await nextToken(o.db, lock).catch(async (err: unknown) => {
        await o.db.rows('SELECT RELEASE_LOCK(?)', [lock]);
        throw err;
      });
      return new MysqlLock({ db: o.db, name: o.name, lock, trail, checkIntervalMs: o.checkIntervalMs }, token);
    },
    () => holderOf(o.db, o.name, lock),
  );
}

/** Runs `fn` holding the lock; the release records the outcome (and the error when `fn` throws) in lockboard_audit. */
export async function withMysqlLock<T>(o: MysqlAcquireOptions, fn: (lock: MysqlLock) => Promise<T>): Promise<T> {
  const lock = await acquireMysqlLock(o);
  return runHolding(lock, fn, async (outcome) => void (await lock.release(outcome)));
}
