// A DynamoDB source in the console, through the route handlers against dynalite: Terraform's lock item listed with
// its store (the digest never), its page with the force-unlock equivalent and DynamoDB's words, a release refused at a
// stale version (409) and done at the one seen, the audit table in the lock's history, and a missing table as 503.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockInfo } from '@/lib/lock';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';

const OPERATOR = 'ops@example.com';
const LOCK = 'tf-state/prod/terraform.tfstate';
let d: TestDynamo;
let routes: Routes;
const info = (who: string) =>
  JSON.stringify({
    ID: `id-${who}`,
    Operation: 'OperationTypeApply',
    Who: who,
    Version: '1.11.4',
    Created: new Date().toISOString(),
    Path: LOCK,
  });

beforeAll(async () => {
  d = await startDynamo();
  await d.table('tf-locks', 'LockID');
  await d.table('lockboard-audit', 'lock', 'id');
  await d.put('tf-locks', { LockID: { S: LOCK }, Info: { S: info('crashed@laptop') } });
  await d.put('tf-locks', { LockID: { S: `${LOCK}-md5` }, Digest: { S: '0f343b0931126a20f133d67c2b018a3b' } });
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: 'dynamodb://tf-locks,dynamodb://no-such-table',
    AWS_ENDPOINT_URL_DYNAMODB: d.url,
    AWS_REGION: 'us-east-1',
    LOCKBOARD_OPERATORS: OPERATOR,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
}, 60_000);
afterAll(() => d?.stop());

type View = LockInfo & { store: string; version: string; terms: { storeLabel: string; rule: string } };

describe('DynamoDB sources in the console', () => {
  it('lists Terraform’s lock item (never its digest) and shows it in DynamoDB’s words', async () => {
    const res = await call(routes.locks.GET, `/api/locks?source=${encodeURIComponent('dynamodb://tf-locks')}`, {
      as: OPERATOR,
    });
    expect(res.status).toBe(200);
    expect((res.json.locks as View[]).map((l) => [l.store, l.bucket, l.name, l.identity])).toEqual([
      ['dynamodb', 'dynamodb://tf-locks', LOCK, 'crashed@laptop'],
    ]);
    expect(res.json.skipped).toBe(1);
    const page = await call(
      routes.lock.GET,
      `/api/locks/${LOCK}?bucket=dynamodb%3A%2F%2Ftf-locks`,
      { as: OPERATOR },
      { name: LOCK.split('/') },
    );
    const view = page.json as unknown as View;
    expect(view.terms.storeLabel).toBe('DynamoDB');
    expect(view.terms.rule).toMatch(/ConditionExpression/);
    expect(view.details).toContainEqual(['Equivalent command', 'terraform force-unlock id-crashed@laptop']);
  });

  it('refuses a stale version (409 with the successor) and releases the one seen, recorded in the audit table', async () => {
    const seen = (
      await call(
        routes.lock.GET,
        `/api/locks/${LOCK}?bucket=dynamodb%3A%2F%2Ftf-locks`,
        { as: OPERATOR },
        { name: LOCK.split('/') },
      )
    ).json as unknown as View;
    await d.put('tf-locks', { LockID: { S: LOCK }, Info: { S: info('next@ci') } });
    const body = (version: string) => ({ source: 'dynamodb://tf-locks', name: LOCK, version, reason: 'apply crashed' });
    const stale = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: body(seen.version),
    });
    expect(stale.status).toBe(409);
    expect((stale.json.current as View).identity).toBe('next@ci');
    const now = (
      await call(
        routes.lock.GET,
        `/api/locks/${LOCK}?bucket=dynamodb%3A%2F%2Ftf-locks`,
        { as: OPERATOR },
        { name: LOCK.split('/') },
      )
    ).json as unknown as View;
    const done = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: body(now.version),
    });
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    const to = encodeURIComponent(new Date(Date.now() + 5_000).toISOString());
    const history = await call(
      routes.audit.GET,
      `/api/audit?lock=${encodeURIComponent(LOCK)}&bucket=dynamodb%3A%2F%2Ftf-locks&to=${to}`,
      { as: OPERATOR },
    );
    expect((history.json.events as { event: string }[]).map((e) => e.event).sort()).toEqual([
      // the stale release was refused on its re-read, before anything was recorded or deleted
      'force-release-requested',
      'force-released',
    ]);
  });

  it('answers a table that does not exist with 503 naming it and the command that creates it', async () => {
    const res = await call(routes.locks.GET, `/api/locks?source=${encodeURIComponent('dynamodb://no-such-table')}`, {
      as: OPERATOR,
    });
    expect(res.status).toBe(503);
    expect((res.json.error as { message: string }).message).toMatch(
      /"no-such-table" does not exist.*lockboard dynamodb init/,
    );
  });
});
