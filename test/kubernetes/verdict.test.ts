// The verdict on Lease holders (stores.md "Verdict") on the real kube-apiserver: a client-go elector whose Pod runs
// is alive (its renewals seen, its Pod Running); a holder whose Pod Failed, or whose Pod does not exist, is unknown
// from one read (its identity may not be a Pod name) and gone once its Lease is seen unchanged past its lease; one
// whose Pod's Node is not Ready is stalled; a Lease last renewed an hour ago by a holder that names no Pod is unknown
// from one read, and the CLI says so (never "healthy"), and still unknown with --settle: expired by the Lease's rule,
// which proves nothing of its holder. Pods and Nodes are created through the API (no kubelet): their phase and
// conditions set through the status subresource. Identities that are not Pod names: pod-identity.test.ts.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSource, parseSource } from '@/lib/lock/stores';
import { runCli } from '../helpers/cli';
import { startKube, type TestKube } from '../helpers/kubernetes';

let kube: TestKube;
beforeAll(async () => {
  kube = await startKube();
}, 120_000);
afterAll(() => kube?.stop());

const apply = (doc: object) => {
  const r = kube.kubectl(['apply', '-f', '-'], JSON.stringify(doc));
  expect(r.code, r.stderr).toBe(0);
};
const status = (kind: string, name: string, body: object) => {
  const r = kube.kubectl(['patch', kind, name, '--subresource=status', '--type=merge', '-p', JSON.stringify(body)]);
  expect(r.code, r.stderr).toBe(0);
};
const pod = (name: string, o: { phase: string; node?: string }) => {
  apply({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'app:1' }], ...(o.node ? { nodeName: o.node } : {}) },
  });
  status('pod', name, { status: { phase: o.phase } });
};
const HOUR_AGO = new Date(Date.now() - 3_600_000)
  .toISOString()
  .replace('Z', '000Z')
  .replace(/\.(\d{3})000000Z$/, '.$1000Z');
const lease = (name: string, holder: string, durationS = 15) =>
  apply({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'default' },
    spec: { holderIdentity: holder, leaseDurationSeconds: durationS, acquireTime: HOUR_AGO, renewTime: HOUR_AGO },
  });

async function until<T>(fn: () => Promise<T | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('Lease holders judged by their renewals and their Pods', () => {
  it('alive with a running Pod, gone with a Failed or absent Pod once unrenewed, stalled on a Node not Ready', async () => {
    pod('elector-a', { phase: 'Running' });
    const a = kube.candidate({ namespace: 'default', name: 'ctrl-a', id: `elector-a_${randomUUID()}` });
    await a.waitFor('LEADING', 30_000);
    pod('elector-b', { phase: 'Failed' });
    lease('ctrl-b', `elector-b_${randomUUID()}`, 2);
    lease('ctrl-c', `elector-c_${randomUUID()}`, 2);
    apply({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } });
    status('node', 'node-1', {
      status: { conditions: [{ type: 'Ready', status: 'False', reason: 'KubeletStopped' }] },
    });
    pod('elector-d', { phase: 'Running', node: 'node-1' });
    lease('ctrl-d', `elector-d_${randomUUID()}`);

    const store = await openSource(parseSource('kubernetes://default'), { env: kube.env, role: 'cli' });
    try {
      const lockOf = async (name: string) => (await store.list()).locks.find((l) => l.name === name)!;
      // one read: a finished or missing Pod may not be the holder's; a read past its 2 s lease unchanged settles it
      const [b1, c1] = [await lockOf('ctrl-b'), await lockOf('ctrl-c')];
      expect([b1.verdict, c1.verdict]).toEqual(['unknown', 'unknown']);
      expect(b1.sentence).toMatch(/its Pod elector-b in namespace default has finished \(Failed\), but its identity/);
      expect(c1.sentence).toMatch(/no Pod named elector-c in namespace default \(nor a Node of that name\), but/);
      await new Promise((r) => setTimeout(r, 2_500));
      const b = await lockOf('ctrl-b');
      expect(b.verdict).toBe('gone');
      expect(b.sentence).toMatch(
        /its Pod elector-b in namespace default has finished \(Failed\), and its Lease has not/,
      );
      expect(b.evidence?.map((e) => e.from)).toContain('Pod default/elector-b');
      const c = await lockOf('ctrl-c');
      expect(c.verdict).toBe('gone');
      expect(c.sentence).toMatch(/no Pod named elector-c in namespace default \(nor a Node of that name\), and its/);
      const d = await lockOf('ctrl-d');
      expect(d.verdict).toBe('stalled');
      expect(d.sentence).toMatch(
        /^Stalled: the Node node-1 of its Pod elector-d in namespace default is not Ready \(False\)/,
      );
      // inspected on its own, each reads its one Pod and Node now, and is judged the same
      for (const [name, was] of [
        ['ctrl-b', b],
        ['ctrl-c', c],
        ['ctrl-d', d],
      ] as const) {
        const now = (await store.inspect(name))!;
        const words = (t?: string) => t?.replace(/\d+/g, '#'); // ages may tick between the two reads
        expect([now.verdict, words(now.sentence)]).toEqual([was.verdict, words(was.sentence)]);
      }

      const alive = await until(async () => {
        const v = await lockOf('ctrl-a');
        return v.verdict === 'alive' && /renewTime moved/.test(v.sentence ?? '') ? v : undefined;
      }, 20_000);
      expect(alive.sentence).toMatch(/its Pod elector-a in namespace default is Running/);
      expect(alive.evidence?.map((e) => e.from)).toEqual(['Lease renewTime, two reads', 'Pod default/elector-a']);
    } finally {
      await store.close();
      await a.stop();
    }
  }, 90_000);
});

describe('a Lease taken over after a listing by a Pod created since', () => {
  it("is judged on its Pod as it is now, never gone from the listing's older Pod list", async () => {
    const store = await openSource(parseSource('kubernetes://default'), { env: kube.env, role: 'cli' });
    try {
      lease('ctrl-e', `elector-gone_${randomUUID()}`); // its holder's Pod does not exist: unknown from one read
      expect((await store.list()).locks.find((l) => l.name === 'ctrl-e')?.sentence).toMatch(
        /^Unknown: .*no Pod named elector-gone in namespace default/,
      );
      // a new leader in a Pod created since takes it over; the pass's Pod list does not have that Pod
      pod('elector-e', { phase: 'Running' });
      lease('ctrl-e', `elector-e_${randomUUID()}`);
      const e = (await store.inspect('ctrl-e'))!;
      expect(e.sentence).toMatch(/its Pod elector-e in namespace default is Running/);
      expect(e.verdict).not.toBe('gone');
    } finally {
      await store.close();
    }
  }, 60_000);
});

describe('lockboard status on a Lease renewed an hour ago', () => {
  it('says unknown from one read (never healthy), and expired by its rule, still unknown, once --settle has read it again', async () => {
    lease('ci-lock', 'ci-runner-7');
    const ls = await runCli(['ls', 'kubernetes://default'], kube.env);
    expect(ls.stdout).toMatch(/^ci-lock .* unknown \(one read\)$/m);
    expect(ls.stdout).toMatch(/VERDICT "\(one read\)": judged by two reads; "lockboard why SOURCE NAME --settle"/);
    const one = await runCli(['status', 'kubernetes://default', 'ci-lock'], kube.env);
    expect(one.stdout).not.toMatch(/healthy/);
    expect(one.stdout).toMatch(
      /verdict +Unknown: seen once: a 15 s lease is judged by two reads; .* Run with --settle/,
    );
    const settled = await runCli(['status', 'kubernetes://default', 'ci-lock', '--settle'], kube.env);
    expect(settled.stderr).toMatch(/Waiting 16 s to read ci-lock again/);
    expect(settled.stdout).toMatch(
      /verdict +Unknown: not renewed for 1\d s, past its 15 s lease: client-go candidates take it over; that expires the lock, but nothing read shows whether its holder still runs/,
    );
    expect(settled.code).toBe(10);
  }, 90_000);
});

describe('a holder lookup this identity may not make', () => {
  it('is unknown naming the grant (403 on pods), never an error, with the shipped RBAC on an RBAC apiserver', async () => {
    const rbac = await startKube({ rbac: true });
    try {
      for (const f of ['namespace.yaml', 'rbac.yaml']) {
        const r = rbac.kubectl(['apply', '-f', `deploy/kubernetes/${f}`]);
        expect(r.code, r.stderr).toBe(0);
      }
      const doc = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'ctrl', namespace: 'lockboard' },
        spec: { holderIdentity: `elector-x_${randomUUID()}`, leaseDurationSeconds: 15, renewTime: HOUR_AGO },
      };
      expect(rbac.kubectl(['apply', '-f', '-'], JSON.stringify(doc)).code).toBe(0);
      // the console's ServiceAccount, by impersonation (kubeconfig `as`): Leases yes, Pods no
      const config = readFileSync(rbac.env.KUBECONFIG!, 'utf8').replace(
        /(    token: .*\n)/,
        '$1    as: system:serviceaccount:lockboard:lockboard-console\n',
      );
      const file = join(mkdtempSync(join(tmpdir(), 'lb-kube-')), 'kubeconfig');
      writeFileSync(file, config);
      const store = await openSource(parseSource('kubernetes://lockboard'), { env: { KUBECONFIG: file }, role: 'cli' });
      try {
        const lock = (await store.list()).locks.find((l) => l.name === 'ctrl')!;
        expect(lock.verdict).toBe('unknown');
        expect(lock.sentence).toMatch(
          /the Pod elector-x in namespace lockboard cannot be looked up: grant this identity get,list on pods in lockboard/,
        );
        expect(lock.evidence?.map((e) => e.fact)).toContain('403 listing pods in lockboard');
      } finally {
        await store.close();
      }
    } finally {
      await rbac.stop();
    }
  }, 120_000);
});
