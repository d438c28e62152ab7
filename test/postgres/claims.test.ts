// Webhook delivery claims on PostgreSQL with a console role that may not create tables: refused with what its owner
// runs; once the owner made lockboard_claims and granted it, the role claims each key once.
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
