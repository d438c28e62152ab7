// The demo's Kubernetes Leases, where a kube-apiserver is built on this machine (scripts/kube-apiserver.sh): a real
// client-go leader with a waiting candidate, a controller whose leader died (its Lease expires as client-go judges
// it), a Terraform kubernetes-backend lock left by a crashed apply (never expires), and node heartbeats (not locks).
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { connectKubernetes, microTime, type Lease } from '../lock/stores/kubernetes';
import { signalGroup, spawnGroup } from './children';
import { KUBE_BIN, kubeMissing, startKubeServer } from './kube-server';
import type { Stopper } from './stopper';

export interface DemoKube {
  source: string;
  env: Record<string, string>;
  stop(): Promise<void>;
  kill(): void;
}

function leases(now: number): Lease[] {
  const old = microTime(now - 3_600_000);
  const info = JSON.stringify({
    ID: 'f2b3c4d5-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
    Operation: 'OperationTypeApply',
    Who: 'runner@gitlab-ci-7',
    Version: '1.9.8',
    Created: new Date(now - 5_400_000).toISOString(),
    Path: '',
    Info: '',
  });
  return [
    {
      metadata: { name: 'payments-operator', namespace: 'default' },
      spec: {
        holderIdentity: 'payments-operator-5d9f7-abcde',
        leaseDurationSeconds: 15,
        acquireTime: old,
        renewTime: old,
        leaseTransitions: 4,
      },
    },
    {
      metadata: {
        name: 'lock-tfstate-default-state',
        namespace: 'default',
        annotations: { 'app.terraform.io/lock-info': info },
      },
      spec: { holderIdentity: 'f2b3c4d5-6e7f-4a8b-9c0d-1e2f3a4b5c6d' },
    },
    ...[1, 2, 3].map((n) => ({
      metadata: { name: `node-${n}`, namespace: 'kube-node-lease' },
      spec: { holderIdentity: `node-${n}`, leaseDurationSeconds: 40, renewTime: microTime(now) },
    })),
  ];
}

/** Starts the apiserver and its Leases, or returns null (saying how to build it) where none is built. */
export async function startDemoKube(dataDir: string, port: number, stop: Stopper): Promise<DemoKube | null> {
  const missing = kubeMissing();
  if (missing) {
    console.log(`Kubernetes Leases: ${missing}; the demo shows none.`);
    return null;
  }
  const server = await startKubeServer(dataDir, port, stop.signal());
  const env = { KUBECONFIG: server.kubeconfig };
  const api = await connectKubernetes(env);
  const children: ChildProcess[] = [...server.children];
  const leader = join(KUBE_BIN, 'kube-leader');
  if (existsSync(leader))
    for (const id of ['scheduler-0', 'scheduler-1'])
      children.push(
        spawnGroup(
          leader,
          ['--kubeconfig', server.kubeconfig, '--namespace', 'default', '--name', 'batch-scheduler', '--id', id],
          {
            stdio: 'ignore',
          },
        ),
      );
  for (const l of leases(Date.now())) await api.create(l).catch(() => undefined);
  const kill = () => {
    for (const c of children) signalGroup(c, 'SIGKILL');
  };
  return {
    source: 'kubernetes://',
    env,
    async stop() {
      for (const c of children.slice(2)) signalGroup(c, 'SIGTERM'); // client-go releases on cancel
      await new Promise((r) => setTimeout(r, 500));
      kill();
    },
    kill,
  };
}
