// A PostgreSQL or DynamoDB server that stops under an open source is named in its store's words: the console's
// unreachable note read "The lock store is unavailable (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:…", naming no
// store. Each source is opened as the console opens it (a pool; an SDK client), listed, its server stopped, and the
// next listing must fail with "Cannot reach PostgreSQL at …" / "Cannot reach DynamoDB for …" that the console and the
// CLI judge as unavailable (store-errors.ts).
import { afterAll, describe, expect, it } from 'vitest';
import type { LockStore } from '@/lib/lock/store';
import { storeUnavailable } from '@/lib/lock/store-errors';
import { openSource, parseSource } from '@/lib/lock/stores';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';
import { startPostgres, type TestPostgres } from '../helpers/postgres';

const opened: LockStore[] = [];
let pg: TestPostgres | undefined;
let dynamo: TestDynamo | undefined;
afterAll(async () => {
  await Promise.allSettled(opened.map((s) => s.close?.()));
  await Promise.allSettled([pg?.stop(), dynamo?.stop()]);
});

async function failure(store: LockStore): Promise<(Error & { code?: string }) | null> {
  return store.list().then(
    () => null,
    (e: unknown) => e as Error & { code?: string },
  );
}

describe('a stopped server, in its store’s words', () => {
  it('PostgreSQL: "Cannot reach PostgreSQL at postgres://…"', async () => {
    pg = await startPostgres();
    const held = await pg.connect();
    await held.query('SELECT pg_advisory_lock(4242)');
    const source = `postgres://127.0.0.1:${pg.port}/postgres`;
    const store = await openSource(parseSource(pg.url), { role: 'console', env: {} });
    opened.push(store);
    expect((await store.list()).locks.map((l) => l.name)).toContain('advisory:4242');
    await pg.stop();
    const err = await failure(store);
    expect(err?.message).toMatch(new RegExp(`^Cannot reach PostgreSQL at ${source.replace(/\./g, '\\.')}: \\S`));
    expect(storeUnavailable(err)).toMatch(/^Cannot reach PostgreSQL .* \(ECONNREFUSED\)$/); // said once, not after "unavailable"
    await held.end().catch(() => undefined);
  }, 60_000);

  it('DynamoDB: "Cannot reach DynamoDB for dynamodb://TABLE (endpoint …)"', async () => {
    dynamo = await startDynamo();
    await dynamo.table('tf-locks', 'LockID');
    const env = { AWS_ENDPOINT_URL_DYNAMODB: dynamo.url }; // a local endpoint: the store's own placeholder keys
    const store = await openSource(parseSource('dynamodb://tf-locks'), { role: 'console', env });
    opened.push(store);
    expect((await store.list()).locks).toEqual([]);
    await dynamo.stop();
    const err = await failure(store);
    expect(err?.message).toMatch(
      /^Cannot reach DynamoDB for dynamodb:\/\/tf-locks \(endpoint http:\/\/127\.0\.0\.1:\d+\): \S/,
    );
    expect(err?.code).toBe('ECONNREFUSED');
    expect(storeUnavailable(err)).toContain('Cannot reach DynamoDB');
  }, 60_000);
});
