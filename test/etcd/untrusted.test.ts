// etcd keys where anyone with write access puts what they like (#39 items 1–3): hostile proposals, bytes that are no
// text, 1 MiB values (etcd takes up to 1.5 MiB) on lock-shaped and other keys, and forged trail records cost only
// their own lock or record: the rest of the source lists in the library, the API and the CLI, no value over 64 KiB
// is read, and a back-dated record is shown as reported (etcd keeps no time), never as the console's signed one.
import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '@/lib/lock/audit/record';
import { setAuditKey, trustAuditRecords } from '@/lib/lock/audit/trust';
import type { LockStore } from '@/lib/lock/store';
import { openSource, parseSource } from '@/lib/lock/stores';
import { runCli } from '../helpers/cli';
import { startEtcd, type TestEtcd } from '../helpers/etcd';
import { HOSTILE_TEXT, RAW_UNSAFE, textFieldsAreText } from '../helpers/fuzz';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';

const OPERATOR = 'ops@example.com';
const KEY = 'e'.repeat(40);
const MIB = 2 ** 20;
let etcd: TestEtcd;
let store: LockStore;
let routes: Routes;
let url: string;
let client: Etcd3;

/** A value put through npm etcd3 on a lease of its own (argv cannot carry 1 MiB or a NUL byte); the lease's hex id. */
async function putLeased(key: (hex: string) => string, value: Buffer): Promise<string> {
  const lease = client.lease(120, { autoKeepAlive: false });
  const hex = BigInt(await lease.grant()).toString(16);
  await lease.put(key(hex)).value(value);
  return hex;
}
const sentBytes = async () => {
  const text = await (await fetch(`http://${etcd.endpoint}/metrics`)).text();
  return Number(/^etcd_network_client_grpc_sent_bytes_total (\S+)$/m.exec(text)?.[1] ?? NaN);
};

beforeAll(async () => {
  etcd = await startEtcd();
  url = `etcd://${etcd.endpoint}/app/`;
  await etcd.queue(['lock', '--ttl', '60', 'app/good']);
  for (const [i, text] of HOSTILE_TEXT.entries()) await etcd.queue(['elect', `app/hostile-${i}`, text]);
  client = new Etcd3({ hosts: `http://${etcd.endpoint}` });
  await putLeased((h) => `app/bytes/${h}`, Buffer.from([0xff, 0xfe, 0, 0x1b, 0x5d, 0x30, 0x3b, 0x78, 7])); // a proposal
  await putLeased((h) => `app/big-leader/${h}`, Buffer.alloc(MIB, 'x')); // an election's leader proposing 1 MiB
  await putLeased(() => 'app/big-single', Buffer.alloc(MIB, 'x')); // a leased key with a 1 MiB value: no lock layout
  await client.put('app/big-plain').value(Buffer.alloc(MIB, 'x')); // a plain 1 MiB key
  // the trail: a forged operator's release back-dated by two hours, a wrong-typed field, 1 MiB of JSON, and no JSON
  const earlier = Date.now() - 2 * 3_600_000;
  const forged = { event: 'force-released', lock: 'app/good', operator: 'operator@demo.lockboard', reason: 'forged' };
  etcd.ctl(
    'put',
    `lockboard/audit/${String(Date.now()).padStart(15, '0')}-f`,
    JSON.stringify({ ...forged, at: new Date(earlier).toISOString() }),
  );
  etcd.ctl(
    'put',
    `lockboard/audit/${String(Date.now()).padStart(15, '0')}-t`,
    JSON.stringify({ event: 'acquired', lock: { a: 1 }, at: new Date().toISOString() }),
  );
  etcd.ctl('put', `lockboard/audit/${String(Date.now()).padStart(15, '0')}-n`, 'not json');
  await client.put(`lockboard/audit/${String(Date.now()).padStart(15, '0')}-b`).value(Buffer.alloc(MIB, '{'));
  setAuditKey(KEY);
  store = await openSource(parseSource(url), { env: {}, role: 'cli' });
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: url,
    LOCKBOARD_OPERATORS: OPERATOR,
    LOCKBOARD_AUDIT_KEY: KEY,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
}, 60_000);
afterAll(async () => {
  setAuditKey(undefined);
  await store?.close();
  client?.close();
  await etcd?.stop();
});

describe('untrusted etcd keys', () => {
  it('list in the library, every shown field text, a 1 MiB proposal named and never read', async () => {
    const first = await sentBytes();
    await store.list(); // finds the large values (their replies refused from their length prefix)
    const before = await sentBytes();
    const { locks } = await store.list();
    const sent = (await sentBytes()) - before;
    const names = locks.map((l) => l.name);
    expect(names).toEqual(expect.arrayContaining(['app/good', 'app/bytes', 'app/big-leader', 'app/hostile-0']));
    expect(names.filter((n) => n.startsWith('app/hostile-'))).toHaveLength(HOSTILE_TEXT.length);
    expect(names).not.toContain('app/big-single');
    for (const l of locks) expect(textFieldsAreText(l as never), l.name).toEqual([]);
    expect(locks.find((l) => l.name === 'app/big-leader')!.identity).toBe('(a value larger than 64 KiB: not read)');
    console.log(
      `etcd made ${((before - first) / 1024).toFixed(0)} KiB of replies for a first listing beside three 1 MiB values ` +
        `(the large ones refused by the client from their length prefix), ${(sent / 1024).toFixed(0)} KiB for the next`,
    );
    expect(sent).toBeLessThan(MIB);
    const plain = await store.inspect('app/big-plain');
    expect(plain).toMatchObject({ format: 'other' });
    expect(JSON.stringify(plain)).toContain('larger than 64 KiB (not read)');
  });

  it('list in the console API and the CLI, holders’ text escaped', async () => {
    const res = await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR });
    expect(res.status).toBe(200);
    expect((res.json.locks as { name: string }[]).map((l) => l.name)).toEqual(
      expect.arrayContaining(['app/good', 'app/big-leader', 'app/hostile-0']),
    );
    const ls = await runCli(['ls', url], {});
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toContain('app/good');
    expect(ls.stdout).toContain('app/big-leader');
    expect(ls.stdout).not.toMatch(RAW_UNSAFE);
  });

  it('shows a back-dated forged record as reported, and the console’s own record at its signed time', async () => {
    const id = await store.record({ event: 'force-released', lock: 'app/good', operator: OPERATOR, reason: 'real' });
    const from = new Date(Date.now() - 3 * 3_600_000);
    const read = await store.readAudit(from, new Date(Date.now() + 60_000));
    const records = trustAuditRecords(read);
    const forged = records.find((r) => r.reason === 'forged')!;
    expect(forged).toMatchObject({ event: 'force-released', verified: false, at_from: 'reported' });
    const real = records.find((r) => r.id === id)!;
    expect(real).toMatchObject({ verified: true, at_from: 'signed', at: real.signed_at });
    expect(records.some((r) => typeof (r as AuditRecord & { lock: unknown }).lock !== 'string')).toBe(false);
    const audit = await call(routes.audit.GET, '/api/audit?days=2', { as: OPERATOR });
    expect(audit.status).toBe(200);
    const shown = (audit.json.events as AuditRecord[]).find((e) => e.reason === 'forged')!;
    expect(shown).toMatchObject({ verified: false, at_from: 'reported' });
  });
});
