// The console's least privilege on PostgreSQL, with real roles: a plain role sees that advisory locks are held but
// not other sessions' queries or addresses, and cannot terminate a holder (nothing happens, the refusal is clear);
// pg_read_all_stats shows the sessions; pg_signal_backend lets it clear an advisory lock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresLockStore } from '@/lib/lock/stores/postgres';
import { startPostgres, type TestPostgres } from '../helpers/postgres';

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startPostgres();
  await pg.admin.query(`CREATE ROLE app LOGIN; CREATE ROLE console_plain LOGIN; CREATE ROLE console_ops LOGIN`);
  await pg.admin.query(`GRANT pg_read_all_stats, pg_signal_backend TO console_ops`);
  await pg.admin.query(`CREATE ROLE console_stats LOGIN; GRANT pg_read_all_stats TO console_stats`);
  // the audit table, created once (by its owner) and granted to the console's roles
  await new PostgresLockStore({ client: pg.admin }).readAudit(new Date(0), new Date());
  await pg.admin.query(
    `GRANT SELECT, INSERT ON lockboard_audit TO console_plain, console_ops, console_stats;
     GRANT USAGE ON SEQUENCE lockboard_audit_id_seq TO console_plain, console_ops, console_stats`,
  );
}, 60_000);
afterAll(() => pg?.stop());

async function storeAs(user: string) {
  const client = await pg.connect({ user });
  return { client, store: new PostgresLockStore({ client, source: 'postgres://test/postgres' }) };
}

describe('least privilege', () => {
  it('without pg_read_all_stats shows the lock but not the holder’s session, and terminates nothing', async () => {
    const holder = await pg.connect({ user: 'app', application_name: 'migrate' });
    await holder.query('SELECT pg_advisory_lock(99)');
    const { client, store } = await storeAs('console_plain');
    const lock = (await store.list()).locks.find((l) => l.name === 'advisory:99')!;
    expect(lock).toBeDefined();
    expect(lock.details).toContainEqual(['Current query', '<insufficient privilege>']);
    await expect(
      store.forceRelease({ name: lock.name, version: lock.version, reason: 'x', operator: 'op' }),
    ).rejects.toThrow(/backend start is hidden.*pg_read_all_stats/);
    expect((await holder.query('SELECT 1 AS ok')).rows[0].ok).toBe(1);
    await client.end();
    // pg_read_all_stats alone: the session is visible, but terminating another role's backend is refused by PostgreSQL
    const stats = await storeAs('console_stats');
    const visible = (await stats.store.list()).locks.find((l) => l.name === 'advisory:99')!;
    await expect(
      stats.store.forceRelease({ name: visible.name, version: visible.version, reason: 'x', operator: 'op' }),
    ).rejects.toThrow(/permission denied|must be a (superuser|member)/i);
    expect((await holder.query('SELECT 1 AS ok')).rows[0].ok).toBe(1);
    // the attempt was recorded, and so is its failure, in PostgreSQL's words (#57)
    const events = await stats.store.readAudit(new Date(Date.now() - 60_000), new Date(Date.now() + 60_000), lock.name);
    expect(events.map((e) => e.event)).toEqual(['force-release-requested', 'force-release-failed']);
    expect(events[1]).toMatchObject({ outcome: 'failed', operator: 'op' });
    expect(events[1]!.error).toMatch(/permission denied|must be a (superuser|member)/i);
    await stats.client.end();
    // with the two roles: the session is visible and the lock can be cleared
    const ops = await storeAs('console_ops');
    const seen = (await ops.store.list()).locks.find((l) => l.name === 'advisory:99')!;
    // its latest statement: literals masked for viewers, whole in the field only operators see
    expect(seen.details.find(([k]) => k === 'Current query')?.[1]).toBe('SELECT ? AS ok');
    expect(seen.sensitive).toContainEqual(['Current query', 'SELECT 1 AS ok']);
    expect(
      (await ops.store.forceRelease({ name: seen.name, version: seen.version, reason: 'x', operator: 'op' })).outcome,
    ).toBe('released');
    await ops.client.end();
    await holder.end().catch(() => undefined);
  });
});
