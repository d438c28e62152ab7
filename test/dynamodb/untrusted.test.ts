// A DynamoDB table where holders write what they like (#39 items 1, 2): items of the wrong attribute types, absurd
// times, Info that is JSON of another shape, hostile text and an item over 64 KiB cost only themselves; the table
// lists in the library, the console API and the CLI (text escaped).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSource, parseSource } from '@/lib/lock/stores';
import { runCli } from '../helpers/cli';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';
import { HOSTILE_TEXT, RAW_UNSAFE, textFieldsAreText } from '../helpers/fuzz';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { trustAuditRecords } from '@/lib/lock/audit/trust';

const OPERATOR = 'ops@example.com';
let d: TestDynamo;
let routes: Routes;
let env: Record<string, string>;
const lease = (key: string, extra: Record<string, AttributeValue> = {}): Record<string, AttributeValue> => ({
  key: { S: key },
  ownerName: { S: 'worker-1' },
  leaseDuration: { S: '20000' },
  recordVersionNumber: { S: 'rvn-1' },
  ...extra,
});

beforeAll(async () => {
  d = await startDynamo();
  env = {
    AWS_ENDPOINT_URL_DYNAMODB: d.url,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'x',
    AWS_SECRET_ACCESS_KEY: 'y',
  };
  await d.table('jobs', 'key');
  await d.put('jobs', lease('good'));
  await d.put('jobs', lease('owner-map', { ownerName: { M: { a: { S: '1' } } } }));
  await d.put('jobs', lease('owner-list', { ownerName: { L: [{ S: 'x' }] } }));
  await d.put(
    'jobs',
    lease('absurd-times', { leaseDuration: { S: '9'.repeat(400) }, lockAcquiredTimeUnixMs: { N: '9.9e125' } }),
  );
  await d.put('jobs', lease('info-null', { Info: { S: 'null' } }));
  await d.put('jobs', lease('info-who', { Info: { S: '{"ID":"1","Who":{"a":1},"Operation":["x"]}' } }));
  await d.put('jobs', lease('huge', { blob: { S: 'z'.repeat(100 * 1024) } }));
  for (const [i, text] of HOSTILE_TEXT.entries())
    await d.put('jobs', lease(`hostile-${i}-${text}`, { ownerName: { S: text } }));
  Object.assign(process.env, env, {
    LOCKBOARD_SOURCES: 'dynamodb://jobs',
    LOCKBOARD_OPERATORS: OPERATOR,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
}, 30_000);
afterAll(() => d?.stop());

describe('untrusted items on DynamoDB', () => {
  it('lists the table in the library: wrong-typed attributes named, oversized items skipped', async () => {
    const store = await openSource(parseSource('dynamodb://jobs'), { env, role: 'cli' });
    try {
      const { locks } = await store.list();
      const byName = Object.fromEntries(locks.map((l) => [l.name, l]));
      expect(byName.good).toMatchObject({ identity: 'worker-1' });
      expect(byName['owner-map']!.note).toMatch(/ownerName \(not a string\)/);
      expect(byName['info-who']!.note).toMatch(/Who \(an object\), Operation \(a list\)/);
      expect(byName['absurd-times']).toBeDefined();
      expect(byName.huge).toBeUndefined();
      for (const l of locks) expect(textFieldsAreText(l as never), l.name).toEqual([]);
    } finally {
      await store.close();
    }
    const res = await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR });
    expect(res.status).toBe(200);
    expect((res.json.locks as { name: string }[]).map((l) => l.name)).toContain('good');
  });

  it('lists them in the CLI with holders’ text escaped', async () => {
    const ls = await runCli(['ls', 'dynamodb://jobs'], env);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toContain('good');
    expect(ls.stdout).not.toMatch(RAW_UNSAFE);
  });
});

describe('trail times on DynamoDB', () => {
  it('shows a back-dated forged item’s time as reported: DynamoDB keeps no time of its own', async () => {
    const store = await openSource(parseSource('dynamodb://jobs'), { env, role: 'cli' });
    try {
      const back = new Date(Date.now() - 2 * 3_600_000).toISOString();
      await store.readAudit(new Date(Date.now() - 60_000), new Date()); // no trail table yet: no events
      await d.table('lockboard-audit', 'lock', 'id');
      await d.put('lockboard-audit', {
        lock: { S: 'good' },
        id: { S: `${back}#f` },
        at: { S: back },
        event: { S: 'force-released' },
        operator: { S: 'operator@demo.lockboard' },
        reason: { S: 'back-dated' },
      });
      const read = await store.readAudit(new Date(Date.now() - 3 * 3_600_000), new Date(Date.now() + 60_000));
      const forged = trustAuditRecords(read).find((e) => e.reason === 'back-dated')!;
      expect(forged).toMatchObject({ at: back, at_from: 'reported', verified: false });
    } finally {
      await store.close();
    }
  });
});
