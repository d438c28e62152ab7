// Lockboard's own lock on MariaDB: a named lock on a dedicated connection. A second taker times out naming the
// holder; an operator's release (the guarded KILL) reaches the holder as a lost lock; a failed block is recorded with
// its error; fencing tokens grow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LockLostError, LockTimeoutError } from '@/lib/lock/errors';
import { acquireMysqlLock, asDb, MysqlLockStore, withMysqlLock } from '@/lib/lock/stores/mysql';
import { startMariadb, type TestMariadb } from '../helpers/mariadb';

let m: TestMariadb;
let store: MysqlLockStore;
beforeAll(async () => {
  m = await startMariadb();
  store = new MysqlLockStore({ db: asDb(m.admin, 'mysql'), source: 'mysql://test/app', database: 'app' });
});
afterAll(() => m?.stop());

const dedicated = async () => {
  const c = await m.connect();
  c.on('error', () => {});
  return { c, db: asDb(c, 'mysql://test/app') };
};

describe("Lockboard's named lock", () => {
  it('lets one holder in; a second taker times out naming it; tokens grow', async () => {
    const a = await dedicated();
    const b = await dedicated();
    const first = await acquireMysqlLock({ db: a.db, name: 'deploy' });
    const err = await acquireMysqlLock({ db: b.db, name: 'deploy', timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect((err as LockTimeoutError).holder?.identity).toMatch(/^root@/);
    expect(await first.release()).toBe('released');
    const second = await acquireMysqlLock({ db: b.db, name: 'deploy', timeoutMs: 0 });
    expect(BigInt(second.fencingToken)).toBeGreaterThan(BigInt(first.fencingToken));
    await second.release();
    a.c.destroy();
    b.c.destroy();
  });

  it('is lost (its signal aborts) when an operator releases it: the guarded KILL ends its connection', async () => {
    const a = await dedicated();
    const lock = await acquireMysqlLock({ db: a.db, name: 'stuck-job', checkIntervalMs: 100 });
    const view = (await store.inspect('named:lockboard/stuck-job'))!;
    expect(view.formatLabel).toBe('Named lock (Lockboard)');
    expect(view.details).toContainEqual(['Tool', 'Lockboard (lockboard run stuck-job)']);
    const r = await store.forceRelease({ name: view.name, version: view.version, reason: 'stuck', operator: 'ops' });
    expect(r.outcome).toBe('released');
    if (!lock.signal.aborted) await new Promise((r) => lock.signal.addEventListener('abort', r, { once: true }));
    expect(lock.signal.reason).toBeInstanceOf(LockLostError);
    expect(await lock.release()).toBe('already-lost');
    a.c.destroy();
  });

  it('records a failed block’s error with its release in lockboard_audit', async () => {
    const a = await dedicated();
    await expect(
      withMysqlLock({ db: a.db, name: 'report' }, async () => {
        throw new Error('relation orders_2026 does not exist');
      }),
    ).rejects.toThrow(/orders_2026/);
    const events = await store.readAudit(
      new Date(Date.now() - 60_000),
      new Date(Date.now() + 60_000),
      'named:lockboard/report',
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      event: 'released',
      outcome: 'error',
      error: 'relation orders_2026 does not exist',
    });
    a.c.destroy();
  });
});
