// Holds on Azure Blob Storage as Terraform's azurerm backend locks its state blob: the blob created empty if absent
// (create-only), an infinite lease whose proposed id is the LockInfo ID, then the LockInfo as base64 JSON in metadata
// `terraformlockid` under that lease. Terraform's own acquire meets the lease (409) and reads the metadata to print
// Who and Info. An infinite lease never ends by itself: unhold (or a running console) ends it.
import { randomUUID } from 'node:crypto';
import type { HoldPlan, StoreHolds } from '../../hold-types';
import { TERRAFORM_HOLD, terraformLockInfo } from '../../hold-terraform';
import type { OpenOptions, SourceSpec } from '../types';
import type { AzureBlobs } from './blobs';
import { azureStatus as statusOf } from './errors';
import { TF_KEY } from './formats';

const AZURE_TERRAFORM = { ...TERRAFORM_HOLD, fits: () => true };

async function leased(blobs: AzureBlobs, plan: HoldPlan, spec: SourceSpec): Promise<boolean> {
  const info = JSON.parse(terraformLockInfo(plan, `${spec.id}${plan.name}`)) as { ID: string };
  const id = randomUUID();
  info.ID = id;
  try {
    await blobs.acquireLease(plan.name, id, -1);
  } catch (err) {
    if (statusOf(err) === 409) return false;
    throw err;
  }
  await blobs.setMetadata(
    plan.name,
    { [TF_KEY]: Buffer.from(JSON.stringify(info)).toString('base64') },
    { leaseId: id },
  );
  return true;
}

export function azureHolds(blobsFor: (spec: SourceSpec, o: OpenOptions) => Promise<AzureBlobs>): StoreHolds {
  return {
    formats: [AZURE_TERRAFORM],
    async place(spec, o, plan) {
      const blobs = await blobsFor(spec, o);
      try {
        await blobs.upload(plan.name, '', { ifNoneMatch: '*' });
      } catch (err) {
        if (statusOf(err) !== 409 && statusOf(err) !== 412) throw err;
      }
      return leased(blobs, plan, spec);
    },
  };
}
