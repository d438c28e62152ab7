// lockboard discover on DynamoDB (dynalite): ListTables names the tables, each is scanned as `ls dynamodb://TABLE`
// scans it, so Terraform's lock table and the lock client's are found with the formats ls names, a table of other
// items is not a candidate; the sample bounds the items read; no item is written.
import { ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';
import { discover, lsFormats } from '../cli/discover-fixtures';

let d: TestDynamo;
let env: Record<string, string>;
const S = (s: string): AttributeValue => ({ S: s });

/** Every item of every table: a write of any kind changes it. */
async function contents(tables: string[]) {
  const all = await Promise.all(tables.map((t) => d.client.send(new ScanCommand({ TableName: t }))));
  return all.map((r) => JSON.stringify(r.Items));
}

beforeAll(async () => {
  d = await startDynamo();
  env = { AWS_ENDPOINT_URL_DYNAMODB: d.url, AWS_REGION: 'us-east-1' };
  await d.table('tf-locks', 'LockID');
  await d.table('app-locks', 'key');
  await d.table('users', 'id');
  // Terraform's S3 backend with dynamodb_table: LockID = bucket/key, Info = the LockInfo JSON
  const info = { ID: 'a1b2', Operation: 'OperationTypeApply', Info: '', Who: 'ci@runner', Version: '1.11.4' };
  await d.put('tf-locks', {
    LockID: S('tf-state/prod/terraform.tfstate'),
    Info: S(JSON.stringify({ ...info, Created: new Date().toISOString(), Path: 'tf-state/prod/terraform.tfstate' })),
  });
  await d.put('tf-locks', { LockID: S('tf-state/prod/terraform.tfstate-md5'), Digest: S('0f343b0931126a20') });
  // the DynamoDB lock client (Java): key, ownerName, leaseDuration, recordVersionNumber
  const lease = { ownerName: S('host-a1b2'), leaseDuration: S('20000'), recordVersionNumber: S('uuid-1') };
  await d.put('app-locks', { key: S('billing'), ...lease });
  for (let i = 0; i < 40; i++) await d.put('users', { id: S(`user-${i}`), name: S(`User ${i}`) });
}, 60_000);
afterAll(async () => d?.stop());

describe('lockboard discover dynamodb://', () => {
  it("finds Terraform's and the lock client's tables with ls's formats, not the others, writing nothing", async () => {
    const tables = ['tf-locks', 'app-locks', 'users'];
    const before = await contents(tables);
    const { report, bySource } = await discover('dynamodb://', {}, env);
    expect(report.unreachable).toBeUndefined();
    expect(report.roots).toBe(3);
    expect(Object.keys(bySource).sort()).toEqual(['dynamodb://app-locks', 'dynamodb://tf-locks']);
    for (const [source, c] of Object.entries(bySource)) expect(c.formats).toEqual(await lsFormats(source, env));
    expect(bySource['dynamodb://tf-locks']!.locks).toBe(1); // the digest item is not a lock
    expect(await contents(tables)).toEqual(before);
  });

  it('stops at the sample: tables listed up to it, each table its share, checked between pages', async () => {
    // a Scan page is the store's (1 MB a segment): the sample is checked before each page, never inside one
    const { report } = await discover('dynamodb://', { sample: 2 }, env);
    expect(report.roots).toBe(2); // ListTables asked for 2: app-locks, tf-locks
    expect(report.sampled).toBe(3); // app-locks' one item, then tf-locks' page of two
    expect(report.cappedBy).toBe('sample');
    expect(report.problems).toEqual(['more DynamoDB containers exist than were listed (a bound: see --help)']);
  });

  it('refuses a target naming a table: that is a source, for ls', async () => {
    await expect(discover('dynamodb://tf-locks', {}, env)).rejects.toThrow(/expected dynamodb:\/\//);
  });
});
