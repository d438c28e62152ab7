// A trail that cannot be forged (#39 item 3): the console's releases are signed and come back `verified`; records a
// holder wrote (a forged operator's release, an unknown event, a wrong-typed field, a back-dated name) do not.
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '@/lib/lock/audit/record';
import { setAuditKey, signAuditFields, trustAuditRecords } from '@/lib/lock/audit/trust';
import { operatorText } from '@/lib/console/churn/operator-text';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { listAuditEvents } from '@/lib/lock/stores/gcs/audit-read';
import { startRedis, type TestRedis } from '../helpers/redis';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';

const OPERATOR = 'ops@example.com';
const KEY = 'k'.repeat(40);
let r: TestRedis;
let emulator: Emulator;
let routes: Routes;
let bucket: string;

beforeAll(async () => {
  [r, emulator] = await Promise.all([startRedis(), startEmulator({ buckets: ['trail'] })]);
  bucket = `redis://127.0.0.1:${r.port}/0`;
  await r.client.sendCommand(['SET', 'locks:deploy', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'PX', '60000']);
  // what any holder with write access to the stream can add
  await r.client.sendCommand([
    'XADD',
    'lockboard:audit',
    '*',
    'event',
    'force-released',
    'lock',
    'locks:deploy',
    'operator',
    'operator@demo.lockboard',
    'reason',
    'forged',
  ]);
  await r.client.sendCommand(['XADD', 'lockboard:audit', '*', 'event', 'made-up', 'lock', 'locks:deploy']);
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: `${bucket}?match=locks:*`,
    LOCKBOARD_OPERATORS: OPERATOR,
    LOCKBOARD_AUDIT_KEY: KEY,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
}, 30_000);
afterAll(async () => {
  await r?.stop();
  await emulator?.close();
});

describe('the audit trail', () => {
  it('returns the console’s own release records verified, and a holder’s forgery or unknown event as neither', async () => {
    const listed = await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR });
    const lock = (listed.json.locks as { name: string; version: string }[])[0]!;
    const body = { name: lock.name, bucket, version: lock.version, reason: 'stuck' };
    const done = await call(routes.release.POST, '/api/locks/release', { as: OPERATOR, method: 'POST', body });
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    const audit = await call(routes.audit.GET, '/api/audit?days=1', { as: OPERATOR });
    expect(audit.status).toBe(200);
    const events = audit.json.events as AuditRecord[];
    for (const e of events) expect(typeof e.verified, e.id).toBe('boolean');
    const forged = events.find((e) => e.reason === 'forged')!;
    expect(forged).toMatchObject({ event: 'force-released', verified: false });
    const real = events.filter((e) => e.reason === 'stuck');
    expect(real.map((e) => [e.event, e.verified])).toEqual([
      ['force-released', true],
      ['force-release-requested', true],
    ]);
    expect(events.find((e) => e.reported_event === 'made-up')).toMatchObject({ event: 'unknown', verified: false });
    expect(JSON.stringify(events)).not.toContain('"sig"');
    const csv = await call(routes.audit.GET, '/api/audit?days=1&format=csv', { as: OPERATOR });
    expect(csv.text.split('\n')[0]).toMatch(/,verified,reported_event,at_from,signature$/);
  });

  it('refuses a record whose signed fields were changed, and drops wrong-typed fields', () => {
    setAuditKey(KEY);
    const at = new Date().toISOString();
    const signed = {
      id: '1',
      at,
      ...signAuditFields({ event: 'force-released', lock: 'a', operator: 'ops', reason: 'x' }),
    };
    expect(trustAuditRecords([signed as AuditRecord], KEY)[0]!.verified).toBe(true);
    expect(trustAuditRecords([{ ...signed, reason: 'changed' } as AuditRecord], KEY)[0]!.verified).toBe(false);
    expect(trustAuditRecords([signed as AuditRecord], 'another-key-'.repeat(4))[0]!.verified).toBe(false);
    const late = { ...signed, at: new Date(Date.now() + 3600_000).toISOString() };
    expect(trustAuditRecords([late as AuditRecord], KEY)[0]!.verified).toBe(false);
    const [kept] = trustAuditRecords(
      [{ id: '2', at, event: 'force-released', lock: 'a', operator: { forged: true } } as never],
      KEY,
    );
    expect(kept).toMatchObject({ id: '2', verified: false });
    expect(kept!.operator).toBeUndefined();
  });

  it('says a release signed with another key (a restart with a new key) is so, never a holder’s report', () => {
    setAuditKey(KEY);
    const at = new Date().toISOString();
    const fields = { event: 'force-released', lock: 'a', operator: 'ops@example.com', reason: 'x' } as const;
    const signed = { id: '1', at, ...signAuditFields(fields) } as AuditRecord;
    const [other] = trustAuditRecords([signed], 'another-key-'.repeat(4));
    expect(other).toMatchObject({ verified: false, signature: 'other-key' });
    expect(operatorText(other!)).toBe(
      'ops@example.com (signed with another audit key than this console’s, not checked)',
    );
    const [forged] = trustAuditRecords([{ id: '2', at, ...fields } as AuditRecord], KEY);
    expect(forged).toMatchObject({ verified: false, signature: 'none' });
    expect(operatorText(forged!)).toBe('ops@example.com (reported by a holder, not signed)');
    const late = { ...signed, at: new Date(Date.now() + 3600_000).toISOString() };
    expect(trustAuditRecords([late], KEY)[0]).toMatchObject({ verified: false, signature: 'copied' });
    const [good] = trustAuditRecords([signed], KEY);
    expect([good!.signature, operatorText(good!)]).toEqual(['verified', 'ops@example.com']);
  });

  it('times a back-dated Cloud Storage record by its creation, not by the name its writer chose', async () => {
    const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'test' });
    const name = '.lockboard/audit/2020/01/01/20200101T000000.000000Z-deadbeef.json';
    await storage
      .bucket('trail')
      .file(name)
      .save('{}', {
        metadata: { metadata: { event: 'force-released', lock: 'locks/x', operator: 'operator@demo.lockboard' } },
      });
    const { events } = await listAuditEvents({
      storage,
      bucket: 'trail',
      auditPrefix: '.lockboard/audit/',
      from: new Date('2020-01-01T00:00:00Z'),
      to: new Date('2020-01-02T00:00:00Z'),
    });
    expect(events).toHaveLength(1);
    expect(Date.now() - Date.parse(events[0]!.at)).toBeLessThan(60_000);
  });
});
