// Webhook delivery claims on PostgreSQL with a console role that may not create tables: refused with what its owner
// runs; once the owner made lockboard_claims and granted it, the role claims each key once. Replicas that first claim
// at the same moment each create the table (CREATE … IF NOT EXISTS races in PostgreSQL) and none fails for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresLockStore } from '@/lib/lock/stores/postgres';
import { startPostgres, type TestPostgres } from '../helpers/postgres';

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startPostgres();
  await pg.admin.query(`CREATE ROLE console_plain LOGIN; REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
}, 60_000);
afterAll(() => pg?.stop());

describe('claims without CREATE', () => {
  it('says what the owner runs, then claims once in the table the owner made', async () => {
    const client = await pg.connect({ user: 'console_plain' });
    try {
      const store = new PostgresLockStore({ client, source: 'postgres://test/postgres' });
      await expect(store.claim('notify-0123')).rejects.toThrow(
        /lockboard_claims \(webhook delivery claims\) cannot be created: permission denied.*have its owner run CREATE TABLE IF NOT EXISTS "public"\.lockboard_claims/,
      );
      await new PostgresLockStore({ client: pg.admin }).claim('notify-owner');
      await pg.admin.query('GRANT SELECT, INSERT, DELETE ON lockboard_claims TO console_plain');
      expect(await store.claim('notify-0123')).toBe(true);
      expect(await store.claim('notify-0123')).toBe(false);
      expect(await store.claim('notify-owner')).toBe(false);
    } finally {
      await client.end();
    }
  });
});

describe('replicas creating the claims and audit tables at the same moment', () => {
  it('all succeed, and exactly one wins each claim (10 fresh schemas × 6 replicas)', async () => {
    const clients = await Promise.all([...Array(6)].map(() => pg.connect()));
    try {
      for (let round = 0; round < 10; round++) {
        const schema = `race_${round}`;
        await pg.admin.query(`CREATE SCHEMA ${schema}`);
        const stores = clients.map((client) => new PostgresLockStore({ client, auditSchema: schema }));
        const won = await Promise.all(stores.map((s) => s.claim('notify-race')));
        expect(won.filter(Boolean)).toHaveLength(1);
        await Promise.all(stores.map((s, i) => s.record({ event: 'note', lock: `x${i}`, operator: 'race' })));
        const { rows } = await pg.admin.query(`SELECT count(*)::int AS n FROM ${schema}.lockboard_audit`);
        expect(rows[0].n).toBe(6);
      }
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  }, 60_000);
});
