// Discovery on S3: `s3://` lists the account's buckets (ListBuckets, one request), `s3://BUCKET` names one; each
// bucket is then listed as `ls s3://BUCKET/` lists it. Terraform's s3 backend keeps its lock beside its state key
// (KEY.tflock) when use_lockfile is set; a dynamodb_table is the DynamoDB store's to answer.
import type { S3Client } from '@aws-sdk/client-s3';
import { oneContainer, folderOf, narrowToFolder, type Discovery } from '../discovery';

export function s3Discovery(clientFor: (env: Record<string, string | undefined>) => Promise<S3Client>): Discovery {
  return {
    target: 's3:// (every bucket) or s3://BUCKET',
    targetOf: () => 's3://', // a configured bucket's account: every bucket
    async roots(target, c) {
      const one = oneContainer(target, 's3');
      if (one) return { roots: [one], problems: [] };
      const [client, { ListBucketsCommand }] = await Promise.all([clientFor(c.env), import('@aws-sdk/client-s3')]);
      if (!c.spend()) return { roots: [], problems: [], capped: true };
      const { Buckets = [] } = await client.send(new ListBucketsCommand({}));
      const roots = Buckets.flatMap((b) => (b.Name ? [`s3://${b.Name}/`] : []));
      return { roots: roots.slice(0, c.limit), problems: [], capped: roots.length > c.limit };
    },
    narrow: narrowToFolder,
    terraform(type, a) {
      if (type !== 's3') return undefined;
      if (a.use_lockfile !== 'true')
        return a.dynamodb_table
          ? { sources: [], problems: [] }
          : {
              sources: [],
              problems: ['backend "s3" sets neither use_lockfile nor dynamodb_table: Terraform takes no lock'],
            };
      if (!a.bucket) return { sources: [], problems: ['backend "s3" names no bucket (give its -backend-config file)'] };
      return { sources: [`s3://${a.bucket}/${folderOf(a.key)}`], problems: [] };
    },
  };
}
