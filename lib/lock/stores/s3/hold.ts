// Holds on S3: Terraform's `.tflock` (use_lockfile), a LockInfo body put with If-None-Match: * as Terraform's s3
// backend puts it; Path is the state's `bucket/key`, as that backend writes it.
import type { S3Client } from '@aws-sdk/client-s3';
import type { HoldPlan, StoreHolds } from '../../hold-types';
import { TERRAFORM_HOLD, terraformLockInfo } from '../../hold-terraform';
import type { OpenOptions, SourceSpec } from '../types';
import { s3Status, S3Objects } from './objects';

export function s3Holds(clientFor: (env: OpenOptions['env']) => Promise<S3Client>): StoreHolds {
  return {
    formats: [TERRAFORM_HOLD],
    async place(spec: SourceSpec, o: OpenOptions, plan: HoldPlan) {
      const client = await clientFor(o.env);
      const path = `${spec.bucket}/${plan.name.replace(/\.tflock$/, '')}`;
      try {
        await new S3Objects(client, spec.bucket).put(plan.name, terraformLockInfo(plan, path), { ifNoneMatch: '*' });
        return true;
      } catch (err) {
        const status = s3Status(err);
        if (status === 412 || status === 409) return false;
        throw err;
      } finally {
        client.destroy();
      }
    },
  };
}
