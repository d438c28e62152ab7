// Holds on Cloud Storage: Terraform's `.tflock` (LockInfo body, created with ifGenerationMatch=0 as Terraform's gcs
// backend creates it) or Lockboard's own lock (metadata, stale at updated + ttl_ms: it ends by itself).
import type { Storage } from '@google-cloud/storage';
import type { HoldFormat, HoldPlan, StoreHolds } from '../../hold-types';
import { holdOwner } from '../../hold-marker';
import { TERRAFORM_HOLD, terraformLockInfo } from '../../hold-terraform';
import { LOCKBOARD_FORMAT } from '../../objects/formats/lockboard';
import type { OpenOptions, SourceSpec } from '../types';
import { BucketObjects, statusOf } from './client';

const LOCKBOARD_HOLD: HoldFormat = {
  id: 'lockboard',
  label: "Lockboard's lock",
  maxMs: 366 * 86_400_000,
  maxWords: 'its ttl_ms; Lockboard takes durations up to 366 days',
  reasonMax: 256,
  endsItself: true,
  fits: () => true,
};

function body(plan: HoldPlan, bucket: string): { text: string; metadata: Record<string, string> } {
  if (plan.format.id === TERRAFORM_HOLD.id)
    return { text: terraformLockInfo(plan, plan.name.replace(/\.tflock$/, '.tfstate')), metadata: {} };
  const ttl = String(plan.untilMs - plan.sinceMs);
  const metadata = {
    format: LOCKBOARD_FORMAT,
    identity: holdOwner(plan.operator, plan.untilMs),
    ttl_ms: ttl,
    refresh_ms: ttl,
    expires_at: String(plan.untilMs / 1000),
    purpose: plan.reason,
  };
  return { text: JSON.stringify({ ...metadata, bucket }), metadata };
}

export function gcsHolds(storageFor: (env: OpenOptions['env']) => Promise<Storage>): StoreHolds {
  return {
    formats: [TERRAFORM_HOLD, LOCKBOARD_HOLD],
    async place(spec: SourceSpec, o: OpenOptions, plan: HoldPlan) {
      const objects = new BucketObjects(await storageFor(o.env), spec.bucket);
      const { text, metadata } = body(plan, spec.bucket);
      try {
        await objects.create(plan.name, text, metadata, { ifGenerationMatch: 0 });
        return true;
      } catch (err) {
        if (statusOf(err) === 412) return false;
        throw err;
      }
    },
  };
}
