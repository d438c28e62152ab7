// Kubernetes Leases on a real kube-apiserver (Debian's source, Debian's etcd): requests and time of a listing of 1 000
// Leases (client-go leaders, Terraform locks, node heartbeats, free Leases) against `kubectl get leases -A`; requests
// of a release against `kubectl delete lease` (one unpinned request: what operators use today); and the handover
// time of a dead client-go leader's Lease to its waiting candidate, released by Lockboard vs waiting out the lease.
import { connectKubernetes, KubeLockStore, microTime, type Lease } from '@/lib/lock/stores/kubernetes';
import { startKube, type TestKube } from '../helpers/kubernetes';
import { countEveryPage, printTable, round, writeJson } from './report';

const LEASES = 1_000;

function leaseOf(i: number): Lease {
  const now = microTime(Date.now());
  if (i % 2 === 0)
    return {
      metadata: { name: `node-${i}`, namespace: 'kube-node-lease' },
      spec: { holderIdentity: `node-${i}`, leaseDurationSeconds: 40, renewTime: now },
    };
  if (i % 10 === 1) return { metadata: { name: `free-${i}`, namespace: 'default' }, spec: {} };
  if (i % 10 === 3) {
    const info = JSON.stringify({ ID: `id-${i}`, Operation: 'OperationTypeApply', Who: 'ci@runner', Created: now });
    const annotations = { 'app.terraform.io/lock-info': info };
    return {
      metadata: { name: `lock-tfstate-ws${i}-state`, namespace: 'default', annotations },
      spec: { holderIdentity: `id-${i}` },
    };
  }
  return {
    metadata: { name: `ctrl-${i}`, namespace: 'default' },
    spec: {
      holderIdentity: `pod-${i}`,
      leaseDurationSeconds: 15,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 0,
    },
  };
}

async function handover(kube: TestKube, name: string, release?: (name: string) => Promise<void>): Promise<number> {
  const a = kube.candidate({ namespace: 'default', name, id: 'pod-a' });
  await a.waitFor('LEADING');
  const b = kube.candidate({ namespace: 'default', name, id: 'pod-b' });
  await b.waitFor('NEW_LEADER pod-a');
  await a.stop('SIGKILL');
  const started = Date.now();
  if (release) await release(name);
  const leading = await b.waitFor('LEADING pod-b', 30_000);
  await b.stop();
  return leading - started;
}

export async function benchKubernetes() {
  const kube = await startKube();
  try {
    const api = await connectKubernetes({ ...kube.env });
    for (let i = 0; i < LEASES; i += 50)
      await Promise.all(Array.from({ length: 50 }, (_, j) => api.create(leaseOf(i + j))));
    const store = new KubeLockStore({ api });
    const rows = [];
    let t = performance.now();
    const kubectl = kube.kubectl(['get', 'leases', '-A', '--no-headers', '-v=6']);
    const kubectlRequests = (kubectl.stderr.match(/GET https:\/\/\S+leases/g) ?? []).length;
    rows.push({
      listing: 'kubectl get leases -A (baseline)',
      requests: kubectlRequests,
      leases: kubectl.stdout.trim().split('\n').length,
      locks: '—',
      ms: round(performance.now() - t),
    });
    let before = api.requests;
    t = performance.now();
    const counted = await countEveryPage(store);
    rows.push({
      listing: 'Lockboard store.list (every page)',
      requests: api.requests - before,
      leases: counted.locks + counted.skipped,
      locks: counted.locks,
      ms: round(performance.now() - t),
    });
    printTable(`Listing ${LEASES} Leases`, rows);

    const view = (await store.inspect('default/ctrl-5'))!;
    before = api.requests;
    const released = await store.forceRelease({
      name: view.name,
      version: view.version,
      reason: 'bench',
      operator: 'bench',
    });
    const releaseRows = [
      {
        release: 'kubectl delete lease (baseline: no precondition)',
        requests: 1,
        pinned: 'no',
        outcome: 'deleted; a live holder re-creates it',
      },
      {
        release: 'Lockboard forceRelease',
        requests: api.requests - before,
        pinned: 'resourceVersion',
        outcome: released.outcome,
      },
    ];
    printTable(
      'Requests per release (Lockboard: read, audit attempt (read + PUT), pinned PUT, audit outcome (read + PUT))',
      releaseRows,
    );

    const byExpiry = await handover(kube, 'handover-expiry');
    const byRelease = await handover(kube, 'handover-release', async (name) => {
      const seen = (await store.inspect(`default/${name}`))!;
      await store.forceRelease({ name: seen.name, version: seen.version, reason: 'bench', operator: 'bench' });
    });
    const handoverRows = [
      { handover: 'waiting out the 15 s lease (baseline)', ms: byExpiry },
      { handover: 'Lockboard release of the dead leader’s Lease', ms: byRelease },
    ];
    printTable('Handover of a dead client-go leader’s Lease to its waiting candidate (retry period 1 s)', handoverRows);
    writeJson('kubernetes', { listing: rows, release: releaseRows, handover: handoverRows });
  } finally {
    await kube.stop();
  }
}
