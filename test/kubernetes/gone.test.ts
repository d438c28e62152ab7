// A Lease watch that comes back too late, on the real kube-apiserver: the console loses its connection to the cluster
// (a TCP proxy cut), a Lease is changed and another deleted meanwhile, and etcd is compacted past the watch's
// resourceVersion with etcdctl. The apiserver (watch cache off: etcd serves the watch) answers the resumed watch 410
// Gone; the store re-lists, tells the console it missed changes, and watches again: the gap's change is shown and the
// deleted Lease goes, in the store's feed and in the console's live stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedingStore, LockStore } from '@/lib/lock/store';
import { openSource, parseSource } from '@/lib/lock/stores';
import { startKube, type TestKube } from '../helpers/kubernetes';
import { startKubeProxy, type KubeProxy } from '../helpers/kube-proxy';
import { delay } from '../helpers/requests';
import { importRoutes, SECRET } from '../helpers/routes';
import { openStream } from '../helpers/stream';

const OPERATOR = 'ops@example.com';
const SOURCE = 'kubernetes://default';
let kube: TestKube;
let proxy: KubeProxy;
let env: Record<string, string | undefined>;

const lease = (name: string, holder: string) =>
  JSON.stringify({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'default' },
    spec: { holderIdentity: holder },
  });
const hold = (name: string, holder: string) => {
  const r = kube.kubectl(['apply', '-f', '-'], lease(name, holder));
  expect(r.code, r.stderr).toBe(0);
};

/** While the console is cut off: `changed` gets a new holder, `deleted` goes, and etcd forgets the history. */
function changeDuringTheGap(changed: string, deleted: string): void {
  proxy.cut();
  hold(changed, 'pod-new');
  expect(kube.kubectl(['delete', 'lease', deleted]).code).toBe(0);
  const status = JSON.parse(kube.etcdctl(['endpoint', 'status', '-w', 'json']).stdout) as {
    Status: { header: { revision: number } };
  }[];
  const compact = kube.etcdctl(['compact', String(status[0]!.Status.header.revision)]);
  expect(compact.code, compact.stderr).toBe(0);
  proxy.restore();
}

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !ok(); await delay(50))
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms} ms`);
}

beforeAll(async () => {
  kube = await startKube({ watchCache: false });
  proxy = await startKubeProxy(kube.server);
  env = { ...process.env, KUBECONFIG: kube.kubeconfigAt(proxy.server) };
});
afterAll(async () => {
  await proxy?.stop();
  await kube?.stop();
});

describe('a Lease watch answered 410 Gone by the real apiserver', () => {
  it('re-lists, says changes were missed, and watches again from the fresh list', async () => {
    for (const [name, holder] of [
      ['s-kept', 'pod-k'],
      ['s-changed', 'pod-old'],
      ['s-deleted', 'pod-d'],
    ])
      hold(name!, holder!);
    const store: LockStore = await openSource(parseSource(SOURCE, env), { env, role: 'cli' });
    const missed: string[] = [];
    const changed: string[] = [];
    const feed = (await (store as FeedingStore).changes({
      changed: (n) => changed.push(...n),
      missed: (why) => missed.push(why),
    }))!;
    try {
      await delay(300); // the watch is open
      changeDuringTheGap('s-changed', 's-deleted');
      await until('missed()', () => missed.length > 0, 8_000);
      expect(missed).toEqual([expect.stringMatching(/410 Gone/)]);
      expect(changed).not.toContain('s-changed'); // the watch never saw the gap: only the re-list shows it
      const page = await store.list();
      expect(page.locks.map((l) => [l.name, l.identity])).toEqual([
        ['s-changed', 'pod-new'],
        ['s-kept', 'pod-k'],
      ]);
      await delay(300); // the new watch is open
      hold('s-kept', 'pod-k2');
      await until('the resumed watch reporting s-kept', () => changed.includes('s-kept'), 1_500);
      expect(missed).toHaveLength(1); // one 410, answered once: no re-list loop
    } finally {
      await feed.stop();
      await store.close();
    }
  });

  it('keeps the console’s live stream exact: the gap’s change shown, the deleted Lease removed', async () => {
    hold('c-changed', 'pod-old');
    hold('c-deleted', 'pod-d');
    Object.assign(process.env, {
      LOCKBOARD_SOURCES: SOURCE,
      KUBECONFIG: env.KUBECONFIG,
      LOCKBOARD_OPERATORS: OPERATOR,
      NEXTAUTH_SECRET: SECRET,
    });
    delete process.env.LOCKBOARD_BUCKET;
    delete process.env.LOCKBOARD_PREFIXES;
    await importRoutes();
    const stream = await import('@/app/api/locks/stream/route');
    const s = await openStream(stream.GET, OPERATOR);
    try {
      const first = await s.next('snapshot');
      expect((first.locks as { name: string }[]).map((l) => l.name)).toContain('c-deleted');
      await delay(500); // the console's watch is open
      changeDuringTheGap('c-changed', 'c-deleted');
      const shown = Date.now();
      const change = async () => {
        const e = await s.next('change', 8_000);
        return e as { upsert: { name: string; identity: string }[]; remove: string[] };
      };
      const seen = { changed: false, removed: false };
      while (!seen.changed || !seen.removed) {
        const e = await change();
        seen.changed ||= e.upsert.some((l) => l.name === 'c-changed' && l.identity === 'pod-new');
        seen.removed ||= e.remove.includes('c-deleted');
      }
      // far sooner than the 60 s reconcile: the 410 made the console list again
      expect(Date.now() - shown).toBeLessThan(8_000);
    } finally {
      await s.close();
      delete process.env.KUBECONFIG;
    }
  });
});
