// Lease bodies are untrusted (#39): whoever may update Leases writes holders, annotations and Terraform's LockInfo.
// On the real apiserver (kubectl and client-node write them): hostile holders, a 200 KiB holderIdentity, a 250 KiB
// annotation, malformed LockInfo and audit records cost only their own fields, named in the lock's note; the rest of
// the source still lists in the store, the API and the CLI, and what a listing passes on stays within the 64 KiB
// rule. The apiserver type-checks a Lease's spec itself; a LeaseApi that does not (unit part) is checked field by field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockStore, LockView } from '@/lib/lock/store';
import { openSource, parseSource } from '@/lib/lock/stores';
import { readLease } from '@/lib/lock/stores/kubernetes/formats';
import type { Lease, LeaseApi } from '@/lib/lock/stores/kubernetes/lease';
import { KubeLockStore } from '@/lib/lock/stores/kubernetes/store';
import { connectKubernetes } from '@/lib/lock/stores/kubernetes/client';
import { runCli } from '../helpers/cli';
import { HOSTILE_TEXT, WRONG_TYPED } from '../helpers/fuzz';
import { startKube, type TestKube } from '../helpers/kubernetes';
import { call, importRoutes, SECRET } from '../helpers/routes';

const KIB = 1024;
const SOURCE = 'kubernetes://default';
const OPERATOR = 'ops@example.com';
const now = new Date().toISOString().replace('Z', '000Z');
const leaseJson = (name: string, spec: object, annotations: Record<string, string> = {}) =>
  JSON.stringify({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'default', annotations },
    spec,
  });
const GOOD = { holderIdentity: 'pod-good', leaseDurationSeconds: 15, renewTime: now, acquireTime: now };

describe('a Lease read from a LeaseApi that checks nothing', () => {
  const lease = (spec: Record<string, unknown>, annotations?: unknown): Lease =>
    ({ metadata: { name: 'x', namespace: 'default', resourceVersion: '1', annotations }, spec }) as Lease;
  const store = (items: Lease[]) =>
    new KubeLockStore({
      api: { list: async () => ({ items, resourceVersion: '1' }) } as unknown as LeaseApi,
      namespace: 'default',
    });

  it('drops each field of the wrong type, names it in the note, and still lists the lock', async () => {
    const wrong = WRONG_TYPED.filter((v) => v !== null && v !== 12345); // null is absent; 12345 a fine number
    const bad: Record<string, unknown[]> = {
      leaseDurationSeconds: [...wrong, '15', 0, 1.5],
      leaseTransitions: [...wrong, '3', -1],
      acquireTime: [...wrong, 12345, 'yesterday'],
      renewTime: [...wrong, 12345, 'x'.repeat(100)],
    };
    for (const [field, values] of Object.entries(bad))
      for (const value of values) {
        const [view] = (await store([lease({ ...GOOD, [field]: value })]).list()).locks;
        expect(view?.identity, `${field}: ${JSON.stringify(value)}`).toBe('pod-good');
        expect(view?.note, `${field}: ${JSON.stringify(value)}`).toContain(`${field} (`);
      }
    const r = readLease(lease({ holderIdentity: { a: 1 } }));
    expect(r?.holder).toBe('(unreadable holderIdentity)');
    expect(r?.dropped).toEqual(['holderIdentity (an object)']);
    const [typed] = (await store([lease(GOOD, { team: 'a', n: 5, o: { x: 1 } })]).list()).locks;
    expect(typed!.metadata).toEqual({ team: 'a' });
    expect(typed!.note).toMatch(/Annotations not shown .*: n \(a number\), o \(an object\)/);
  });
});

describe('malformed and huge Leases on the real apiserver', () => {
  let kube: TestKube;
  let store: LockStore;

  beforeAll(async () => {
    kube = await startKube();
    const env = { ...process.env, ...kube.env };
    store = await openSource(parseSource(SOURCE, env), { env, role: 'cli' });
    const api = await connectKubernetes(env); // the store's views are judged, its API its own: write as a client
    const tf = (who: unknown) => JSON.stringify({ ID: 'a1', Who: who, Created: ['x'], Operation: 'apply' });
    const writes: [string, object, Record<string, string>?][] = [
      ['good', GOOD],
      ...HOSTILE_TEXT.map((t, i): [string, object] => [`hostile-${i}`, { holderIdentity: t }]),
      ['huge-holder', { holderIdentity: 'h'.repeat(200 * KIB) }],
      ['big-annot', GOOD, { 'example.com/blob': 'b'.repeat(250 * KIB), 'example.com/team': 'payments' }],
      ['lock-tfstate-bad', { holderIdentity: 'a1' }, { 'app.terraform.io/lock-info': 'not json {' }],
      ['lock-tfstate-typed', { holderIdentity: 'a1' }, { 'app.terraform.io/lock-info': tf({ x: 1 }) }],
      ['lock-tfstate-huge', { holderIdentity: 'a1' }, { 'app.terraform.io/lock-info': tf('w'.repeat(200 * KIB)) }],
    ];
    for (const [name, spec, annotations] of writes) {
      // kubectl's argument list cannot carry 200 KiB: the big ones go through client-node, as the store writes
      const body = JSON.parse(leaseJson(name, spec, annotations)) as Lease;
      await api.create(body);
    }
    const record = (fields: object) => JSON.stringify({ lock: 'good', at: new Date().toISOString(), ...fields });
    const audit = {
      'audit.lockboard.dev/00000000000001-aaaaaa': 'not json',
      'audit.lockboard.dev/00000000000002-aaaaaa': record({ event: { forged: true } }),
      'audit.lockboard.dev/00000000000003-aaaaaa': record({ event: 'acquired', operator: ['x'] }),
      'audit.lockboard.dev/00000000000004-aaaaaa': record({ event: 'acquired', reason: 'r'.repeat(100 * KIB) }),
    };
    const r = kube.kubectl(['create', '-f', '-'], leaseJson('lockboard-audit', {}, audit));
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(async () => {
    await store?.close();
    await kube?.stop();
  });

  it('is refused by the apiserver itself when a spec field has the wrong type', () => {
    const r = kube.kubectl(
      ['create', '--validate=false', '-f', '-'],
      leaseJson('typed', { holderIdentity: 'x', leaseDurationSeconds: '15' }),
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/leaseDurationSeconds|cannot unmarshal string/);
  });

  it('lists every Lease, each bad field dropped and named, within the 64 KiB rule', async () => {
    const page = await store.list();
    const byName = new Map(page.locks.map((l): [string, LockView] => [l.name, l]));
    expect([...byName.keys()].sort()).toEqual(
      ['big-annot', 'good', 'huge-holder', 'lock-tfstate-bad', 'lock-tfstate-huge', 'lock-tfstate-typed']
        .concat(HOSTILE_TEXT.map((_, i) => `hostile-${i}`))
        .sort(),
    );
    expect(byName.get('good')).toMatchObject({ identity: 'pod-good', format: 'client-go-lease' });
    expect(byName.get('good')!.note ?? '').not.toMatch(/Ignored|not shown/);
    expect(byName.get('huge-holder')!.identity).toMatch(/holderIdentity of 204800 bytes: not read/);
    expect(byName.get('huge-holder')!.note).toMatch(/holderIdentity \(larger than 64 KiB\)/);
    expect(byName.get('big-annot')!.metadata).toEqual({ 'example.com/team': 'payments' });
    expect(byName.get('big-annot')!.note).toMatch(/example\.com\/blob \(256000 bytes\)/);
    expect(byName.get('lock-tfstate-typed')).toMatchObject({ format: 'terraform', identity: 'a1' });
    expect(byName.get('lock-tfstate-typed')!.note).toMatch(/LockInfo Who \(an object\)/);
    expect(byName.get('lock-tfstate-huge')).toMatchObject({ format: 'terraform', identity: 'a1' });
    expect(byName.get('lock-tfstate-huge')!.note).toMatch(/lock-info \(larger than 64 KiB/);
    expect(byName.get('lock-tfstate-bad')).toMatchObject({ format: 'terraform', identity: 'a1' });
    // 650 KiB of holder and annotations were written; what the listing passes on is each lock's 64 KiB at most
    const size = JSON.stringify(page).length;
    console.log(`listing of ${page.locks.length} locks with 650 KiB of holders and annotations written: ${size} bytes`);
    expect(size).toBeLessThan(100 * KIB);
  });

  it('reads a list within its byte budget: shorter pages, and a Lease over the budget counted, not read', async () => {
    const budget = 240 * KIB; // big-annot's 250 KiB annotation is over it
    const api = await connectKubernetes(kube.env, undefined, budget);
    const small = new KubeLockStore({ api, namespace: 'default' });
    const names: string[] = [];
    let skipped = 0;
    let token: string | undefined;
    do {
      const page = await small.list(token);
      names.push(...page.locks.map((l) => l.name));
      skipped += page.skipped;
      token = page.nextPageToken;
    } while (token);
    expect(names.sort()).toEqual(
      [...(await store.list()).locks.map((l) => l.name)].filter((n) => n !== 'big-annot').sort(),
    );
    expect(skipped).toBe(2); // big-annot unread, lockboard-audit not a lock
    expect(api.largestRead).toBeLessThanOrEqual(budget);
    console.log(
      `listing under a ${budget / KIB} KiB budget: ${api.requests} requests, largest ${api.largestRead} bytes`,
    );
  });

  it('reads only well-formed audit records within 64 KiB', async () => {
    const events = await store.readAudit!(new Date(Date.now() - 3_600_000), new Date(Date.now() + 60_000));
    expect(events.map((e) => [e.id, e.event, e.operator])).toEqual([['00000000000003-aaaaaa', 'acquired', undefined]]);
  });

  it('still lists the source in the API and the CLI', async () => {
    Object.assign(process.env, {
      LOCKBOARD_SOURCES: SOURCE,
      KUBECONFIG: kube.kubeconfig,
      LOCKBOARD_OPERATORS: OPERATOR,
      NEXTAUTH_SECRET: SECRET,
    });
    delete process.env.LOCKBOARD_BUCKET;
    delete process.env.LOCKBOARD_PREFIXES;
    try {
      const routes = await importRoutes();
      const res = await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR });
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      const names = (res.json.locks as LockView[]).map((l) => l.name);
      expect(names).toEqual(expect.arrayContaining(['good', 'huge-holder', 'big-annot', 'hostile-0']));
      expect(res.text.length).toBeLessThan(200 * KIB);
    } finally {
      delete process.env.KUBECONFIG;
    }
    const cli = await runCli(['ls', SOURCE], kube.env);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain('good');
    expect(cli.stdout).toContain('huge-holder');
    expect(cli.stdout.length).toBeLessThan(100 * KIB);
  });
});
