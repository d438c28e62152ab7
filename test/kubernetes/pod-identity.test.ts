// Holder identities that name no Pod, on the real kube-apiserver (facts-sound.md "Kubernetes identities that are not
// Pod names"): real client-go leaders that renew while no Pod of their identity's name is in the Lease's namespace (a
// leader outside the cluster; one whose Pod runs in another namespace; one whose Pod sets spec.hostname; one whose
// Pod's name is over 63 characters, its hostname cut) are never gone, by a listing, an inspection, `why --settle` or
// `release --if-gone`; a Pod being deleted (deletionTimestamp set, kept by an apiserver with no kubelet) is never
// gone. The control: a leader killed and its Pod deleted is gone once its Lease has been unchanged past five of the
// renewals seen plus 2 s, well before its 60 s lease runs out.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSource, parseSource } from '@/lib/lock/stores';
import type { LockStore, LockView } from '@/lib/lock/store';
import { runCli } from '../helpers/cli';
import { startKube, type TestKube } from '../helpers/kubernetes';
import { delay } from '../helpers/requests';

const SOURCE = 'kubernetes://default';
let kube: TestKube;
let store: LockStore;
beforeAll(async () => {
  kube = await startKube();
  store = await openSource(parseSource(SOURCE), { env: kube.env, role: 'cli' });
}, 120_000);
afterAll(async () => {
  await store?.close();
  await kube?.stop();
});

const ok = (r: { code: number; stderr: string }) => expect(r.code, r.stderr).toBe(0);
const apply = (doc: object) => ok(kube.kubectl(['apply', '-f', '-'], JSON.stringify(doc)));
/** A Pod as the apiserver keeps it with no kubelet: its phase set through the status subresource. */
function runningPod(name: string, o: { namespace?: string; node?: string; hostname?: string } = {}) {
  const namespace = o.namespace ?? 'default';
  apply({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace },
    spec: {
      containers: [{ name: 'app', image: 'app:1' }],
      ...(o.node ? { nodeName: o.node } : {}),
      ...(o.hostname ? { hostname: o.hostname } : {}),
    },
  });
  const body = JSON.stringify({ status: { phase: 'Running' } });
  ok(kube.kubectl(['patch', 'pod', name, '-n', namespace, '--subresource=status', '--type=merge', '-p', body]));
}
/** A MicroTime an hour ago (six fractional digits, as the apiserver wants). */
const hourAgo = () => new Date(Date.now() - 3_600_000).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
const holderOf = (lease: string) =>
  kube.kubectl(['get', 'lease', lease, '-o', 'jsonpath={.spec.holderIdentity}']).stdout;
const lockOf = async (name: string) => (await store.list()).locks.find((l) => l.name === name)!;

/** Each listing's verdict on `names` every 500 ms for `ms`. */
async function watchVerdicts(names: string[], ms: number): Promise<Map<string, LockView[]>> {
  const seen = new Map(names.map((n) => [n, [] as LockView[]]));
  for (const end = Date.now() + ms; Date.now() < end; await delay(500)) {
    const page = await store.list();
    for (const n of names) seen.get(n)!.push(page.locks.find((l) => l.name === n)!);
  }
  return seen;
}

describe('a renewing client-go leader whose identity names no Pod in the Lease’s namespace', () => {
  it('is never gone: listed, inspected, asked why with --settle, or released --if-gone', async () => {
    ok(kube.kubectl(['create', 'namespace', 'tools']));
    runningPod('ctrl-tools', { namespace: 'tools' }); // elects in default (LeaderElectionNamespace), runs in tools
    runningPod('web-0', { hostname: 'api-host' }); // its hostname, so its identity, is spec.hostname
    const long = `ctrl-${'x'.repeat(66)}`; // 71 characters: the kubelet cuts its hostname to 63
    runningPod(long);
    const identities: Record<string, string> = {
      'elect-offcluster': 'laptop.ops.example',
      'elect-other-ns': 'ctrl-tools',
      'elect-hostname': 'api-host',
      'elect-cut': long.slice(0, 63),
    };
    const names = Object.keys(identities);
    const fast = { retry: '1s', lease: '4s', renewDeadline: '3s' };
    const leaders = names.map((name) =>
      kube.candidate({ namespace: 'default', name, id: `${identities[name]}_${randomUUID()}`, ...fast }),
    );
    try {
      await Promise.all(leaders.map((c) => c.waitFor('LEADING', 30_000)));
      const page = await store.list(); // the first read of each
      for (const [name, host] of Object.entries(identities)) {
        const first = page.locks.find((l) => l.name === name)!;
        expect(first.verdict, name).toBe('unknown');
        expect(first.sentence).toContain(`no Pod named ${host} in namespace default (nor a Node of that name)`);
        expect(first.sentence).toMatch(/its identity may not be a Pod name here \(a leader outside the cluster/);
      }
      // well past five of its renewal intervals plus 2 s, and past its lease: read every 500 ms, never gone
      const verdicts = await watchVerdicts(names, 12_000);
      for (const [name, views] of verdicts) {
        expect(
          views.filter((v) => v.verdict === 'gone').map((v) => v.sentence),
          name,
        ).toEqual([]);
        expect(views.at(-1)!.verdict, name).toBe('alive');
      }
      for (const name of names) expect((await store.inspect(name))!.verdict, name).not.toBe('gone');

      const why = await runCli(['why', SOURCE, 'elect-offcluster', '--settle'], kube.env);
      expect(why.stderr).toMatch(/Waiting 5 s to read elect-offcluster again/);
      expect(why.stdout).toMatch(/^Alive: its renewTime moved between two reads/);
      const release = await runCli(['release', SOURCE, 'elect-other-ns', '--if-gone', '--reason', 't'], kube.env);
      expect(release.stdout).toMatch(
        /^Not released \(--if-gone\): its holder is judged unknown: .*no Pod named ctrl-tools in namespace default/,
      );
      expect(release.code).toBe(11);
      expect(holderOf('elect-other-ns')).toMatch(/^ctrl-tools_/);
    } finally {
      await Promise.all(leaders.map((c) => c.stop()));
    }
  }, 90_000);
});

describe('a holder whose Pod is being deleted', () => {
  it('is never gone while the Pod stays with its deletionTimestamp, even with its Lease long unrenewed', async () => {
    runningPod('elector-del', { node: 'node-del' }); // bound to a node: no kubelet removes it after the delete
    const id = `elector-del_${randomUUID()}`;
    apply({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'ctrl-del', namespace: 'default' },
      spec: { holderIdentity: id, leaseDurationSeconds: 2, acquireTime: hourAgo(), renewTime: hourAgo() },
    });
    ok(kube.kubectl(['delete', 'pod', 'elector-del', '--wait=false']));
    const ends = kube.kubectl(['get', 'pod', 'elector-del', '-o', 'jsonpath={.metadata.deletionTimestamp}']).stdout;
    expect(ends).toMatch(/^\d{4}-\d\d-\d\dT/); // still there, being deleted

    const first = await lockOf('ctrl-del');
    await delay(3_000); // its Lease unchanged past its 2 s lease: stopped, by any rule
    const later = await lockOf('ctrl-del');
    for (const v of [first, later, (await store.inspect('ctrl-del'))!]) {
      expect(v.verdict).toBe('unknown');
      const [, at] =
        /its Pod elector-del in namespace default is being deleted \(its 30 s grace period ends at (\S+)\): it runs until its containers stop, so it is not gone/.exec(
          v.sentence ?? '',
        ) ?? [];
      expect(Date.parse(at ?? ''), v.sentence).toBe(Date.parse(ends));
    }
    expect(later.health).toBe('expired');
    const release = await runCli(['release', SOURCE, 'ctrl-del', '--if-gone', '--reason', 't'], kube.env);
    expect(release.code).toBe(11);
    expect(holderOf('ctrl-del')).toBe(id);
  }, 60_000);
});

describe('a Lease renewed an hour ago whose holder names no Pod', () => {
  it('is unknown from one read, naming the namespace, and gone once --settle has seen it unchanged past its lease', async () => {
    apply({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'ctrl-old', namespace: 'default' },
      spec: { holderIdentity: `elector-old_${randomUUID()}`, leaseDurationSeconds: 3, renewTime: hourAgo() },
    });
    const once = await runCli(['why', SOURCE, 'ctrl-old'], kube.env);
    expect(once.stdout).toMatch(
      /^Unknown: .*no Pod named elector-old in namespace default .* Run with --settle to read again after 4 s\./m,
    );
    const settled = await runCli(['why', SOURCE, 'ctrl-old', '--settle'], kube.env);
    expect(settled.stdout).toMatch(
      /^Holder gone: no Pod named elector-old in namespace default \(nor a Node of that name\), and its Lease has not changed for 4\.\d s, past its 3 s lease\.$/m,
    );
  }, 60_000);
});

describe('the control: a client-go leader killed and its Pod deleted', () => {
  it('is gone once its Lease has been unchanged past five of the 2 s renewals seen plus 2 s, well before its 60 s lease', async () => {
    runningPod('elector-k'); // never bound to a node: a delete removes it at once
    const leader = kube.candidate({
      namespace: 'default',
      name: 'ctrl-k',
      id: `elector-k_${randomUUID()}`,
      retry: '2s',
      lease: '60s',
    });
    try {
      await leader.waitFor('LEADING', 30_000);
      const before = (await watchVerdicts(['ctrl-k'], 8_000)).get('ctrl-k')!; // renewals seen: its cadence
      expect(before.map((v) => v.verdict)).not.toContain('gone');
      expect(before.at(-1)!.verdict).toBe('alive');
      await leader.stop('SIGKILL');
      ok(kube.kubectl(['delete', 'pod', 'elector-k']));
      const killed = Date.now();
      let gone: LockView | undefined;
      while (!gone && Date.now() - killed < 30_000) {
        const v = await lockOf('ctrl-k');
        if (v.verdict === 'gone') gone = v;
        else await delay(500);
      }
      const after = Date.now() - killed;
      expect(gone?.sentence).toMatch(
        /^Holder gone: no Pod named elector-k in namespace default \(nor a Node of that name\), and its Lease has not changed for \d+\.\d s, past \d+ s \(5 of the [2-4] s renewals seen, and 2 s\)\.$/,
      );
      expect(gone!.health).toBe('healthy'); // its 60 s lease still runs: the Lease's rule says nothing yet
      expect(after).toBeLessThan(20_000);
      console.log(`gone ${after} ms after the kill: ${gone!.sentence}`);
    } finally {
      await leader.stop();
    }
  }, 90_000);
});
