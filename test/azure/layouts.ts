// The exact layouts other tools leave in a container, written with @azure/storage-blob as they write them
// (facts-azure.md): Terraform azurerm's infinite lease whose id is the LockInfo ID with base64 LockInfo in
// `terraformlockid` (named as Go canonicalises it), a lease with no lock info, lock info left after a break, and
// WebJobs singletons (fixed leases, service-generated ids, FunctionInstance on function locks).
import { randomUUID } from 'node:crypto';
import type { ContainerClient } from '@azure/storage-blob';

export const STATE = JSON.stringify({ version: 4, terraform_version: '1.11.4', serial: 3, resources: [] });

export function lockInfo(who: string, path: string, id = randomUUID()) {
  return {
    ID: id,
    Operation: 'OperationTypeApply',
    Info: '',
    Who: who,
    Version: '1.11.4',
    Created: '2026-11-27T13:23:29.581666687Z',
    Path: path,
  };
}

/** Terraform's Lock(): the state blob (created empty if absent), an infinite lease with id = LockInfo.ID, the info. */
export async function terraformLock(c: ContainerClient, key: string, who: string, state = STATE) {
  const blob = c.getBlockBlobClient(key);
  if (!(await blob.exists())) await blob.upload(state, Buffer.byteLength(state));
  const info = lockInfo(who, `${c.containerName}/${key}`);
  const lease = blob.getBlobLeaseClient(info.ID);
  await lease.acquireLease(-1);
  const encoded = Buffer.from(JSON.stringify(info)).toString('base64');
  await blob.setMetadata({ Terraformlockid: encoded }, { conditions: { leaseId: info.ID } });
  return { info, blob, lease };
}

/** A lease taken with no lock info (a crash between AcquireLease and SetMetadata, or another tool). */
export async function bareLease(c: ContainerClient, name: string, seconds = -1) {
  const blob = c.getBlockBlobClient(name);
  if (!(await blob.exists())) await blob.upload(STATE, STATE.length);
  const lease = blob.getBlobLeaseClient(randomUUID());
  await lease.acquireLease(seconds);
  return { blob, lease };
}

/** A WebJobs singleton: a fixed lease (service-generated id), FunctionInstance written after acquiring, renewed. */
export async function webjobsSingleton(
  c: ContainerClient,
  name: string,
  o: { instance?: string; seconds?: number } = {},
) {
  const blob = c.getBlockBlobClient(name);
  if (!(await blob.exists())) await blob.upload('', 0);
  const lease = blob.getBlobLeaseClient();
  await lease.acquireLease(o.seconds ?? 15);
  if (o.instance) await blob.setMetadata({ FunctionInstance: o.instance }, { conditions: { leaseId: lease.leaseId } });
  const timer = setInterval(() => void lease.renewLease().catch(() => undefined), 4_000);
  return { blob, lease, stop: () => clearInterval(timer) };
}
