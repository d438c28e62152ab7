// The contract on Kubernetes Leases: a real kube-apiserver (built from Debian's source package, on Debian's etcd),
// every namespace as the source, a Terraform kubernetes-backend lock written by kubectl (a successor is bob's
// LockInfo), and a node heartbeat Lease in kube-node-lease as what is not a lock. Leases queue no contenders (client-go
// candidates only retry), so there is no queue harness.
import { randomUUID } from 'node:crypto';
import { startKube } from '../helpers/kubernetes';
import type { Harness } from './harnesses';

const tfLease = (who: string) =>
  JSON.stringify({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: 'lock-tfstate-default-state',
      namespace: 'default',
      annotations: {
        'app.terraform.io/lock-info': JSON.stringify({
          ID: randomUUID(),
          Operation: 'OperationTypeApply',
          Who: who,
          Version: '1.11.4',
          Created: new Date().toISOString(),
          Path: '',
          Info: '',
        }),
      },
    },
    spec: { holderIdentity: randomUUID() },
  });

export async function kubernetesHarness(): Promise<Harness> {
  const kube = await startKube();
  const apply = (verb: 'create' | 'replace', body: string) => {
    const r = kube.kubectl([verb, '-f', '-'], body);
    if (r.code !== 0) throw new Error(`kubectl ${verb}: ${r.stderr}`);
  };
  const heartbeat = JSON.stringify({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'node-1', namespace: 'kube-node-lease' },
    spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40, renewTime: '2026-01-01T00:00:00.000000Z' },
  });
  return {
    kind: 'kubernetes',
    source: 'kubernetes://',
    env: kube.env,
    lock: 'default/lock-tfstate-default-state',
    notALock: 'kube-node-lease/node-1',
    async hold() {
      apply('create', tfLease('alice@laptop'));
      apply('create', heartbeat);
    },
    successor: async () => apply('replace', tfLease('bob@ci')),
    stop: () => kube.stop(),
  };
}
