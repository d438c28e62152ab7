// Holds on DynamoDB: Terraform's lock item (its S3 backend's dynamodb_table), `LockID` = the state's `bucket/key`
// and `Info` = the LockInfo JSON, put with attribute_not_exists as Terraform puts it: a blocked `terraform plan`
// prints the hold's Who and Info. Terraform never ends it by itself.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { StoreHolds } from '../../hold-types';
import { TERRAFORM_HOLD, terraformLockInfo } from '../../hold-terraform';
import type { OpenOptions } from '../types';
import { tableOf } from './source';
import { DynamoTable } from './table';

const TERRAFORM_ITEM = { ...TERRAFORM_HOLD, fits: (name: string) => name.includes('/') && !name.endsWith('-md5') };

export function dynamoHolds(clientFor: (env: OpenOptions['env']) => Promise<DynamoDBClient>): StoreHolds {
  return {
    formats: [TERRAFORM_ITEM],
    async place(spec, o, plan) {
      const client = await clientFor(o.env);
      try {
        const table = new DynamoTable(client, tableOf(spec.url));
        const key = await table.keyOf(plan.name);
        const item = { ...key, Info: { S: terraformLockInfo(plan, plan.name) } };
        const hash = Object.keys(key)[0]!;
        return await table.putIf(item, { expression: 'attribute_not_exists(#k)', names: { '#k': hash } });
      } finally {
        client.destroy();
      }
    },
  };
}
