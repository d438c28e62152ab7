// A hold on a Terraform state lock makes Terraform itself wait: `terraform plan` against the emulator's GCS and S3
// backends (and the s3 backend's DynamoDB lock table, on dynalite) is refused while held, printing the hold's Who (the operator and the end) and Info (the reason) under its
// "Lock Info:", and plans again once `lockboard unhold` ended it. Where `terraform` is not on PATH the test is not
// skipped: it checks the LockInfo JSON field by field as Terraform's statemgr.LockInfo defines it, and says so.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { runCli } from '../helpers/cli';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';
import { s3ClientFor } from '../helpers/s3';
import { runTerraform } from '../helpers/terraform';
import { hasTool } from '../helpers/tools';

let emulator: Emulator;
let dynamo: TestDynamo;
let env: Record<string, string>;
beforeAll(async () => {
  emulator = await startEmulator({ buckets: ['tf-state'], s3: { buckets: ['tf-state'] } });
  dynamo = await startDynamo();
  await dynamo.table('tf-locks', 'LockID');
  env = {
    LOCKBOARD_GCS_ENDPOINT: emulator.url,
    AWS_ENDPOINT_URL_S3: emulator.s3!.url,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.url,
    AWS_REGION: 'us-east-1',
  };
  // the trail a hold's records and its end's release are written in (the release is refused without it)
  expect((await runCli(['dynamodb', 'init', 'dynamodb://tf-locks'], env)).code).toBe(0);
});
afterAll(async () => {
  await dynamo?.stop();
  await emulator?.close();
});

type Setting = string | boolean | Record<string, string>;
const hcl = (v: Setting): string =>
  typeof v === 'object'
    ? `{ ${Object.entries(v)
        .map(([k, x]) => `${k} = ${JSON.stringify(x)}`)
        .join(', ')} }`
    : JSON.stringify(v);

/** A backend block from its settings (strings quoted, booleans bare, objects as HCL's). */
const block = (kind: string, settings: Record<string, Setting>) =>
  `backend "${kind}" {\n${Object.entries(settings)
    .map(([k, v]) => `    ${k} = ${hcl(v)}`)
    .join('\n')}\n  }`;

/** Terraform's s3 backend on the emulator: its own lock file, or DynamoDB's lock item when `dynamodb` is given. */
const s3Backend = (dynamodb?: string) =>
  block('s3', {
    bucket: 'tf-state',
    key: 'envs/prod/terraform.tfstate',
    region: 'us-east-1',
    ...(dynamodb ? { dynamodb_table: 'tf-locks' } : { use_lockfile: true }),
    endpoints: { s3: emulator.s3!.url, ...(dynamodb ? { dynamodb } : {}) },
    use_path_style: true,
    access_key: 'test',
    secret_key: 'test',
    ...Object.fromEntries(
      ['credentials_validation', 'requesting_account_id', 'metadata_api_check', 'region_validation', 's3_checksum'].map(
        (k) => [`skip_${k}`, true],
      ),
    ),
  });

const BACKENDS = {
  gcs: () =>
    block('gcs', {
      bucket: 'tf-state',
      prefix: 'prod',
      storage_custom_endpoint: `${emulator.url}/storage/v1/`,
      access_token: 'anything',
    }),
  s3: () => s3Backend(),
  dynamodb: () => s3Backend(dynamo.url),
};

const CASES = [
  { backend: 'gcs' as const, source: 'gs://tf-state/prod/', name: 'prod/default.tflock' },
  { backend: 's3' as const, source: 's3://tf-state/envs/', name: 'envs/prod/terraform.tfstate.tflock' },
  { backend: 'dynamodb' as const, source: 'dynamodb://tf-locks', name: 'tf-state/envs/prod/terraform.tfstate' },
];

const REASON = 'INC-123 state surgery, do not apply';
const TERRAFORM = hasTool('terraform');

/** The lock's bytes as stored: the LockInfo JSON Terraform reads. */
async function lockInfoOf(backend: 'gcs' | 's3' | 'dynamodb', name: string): Promise<Record<string, unknown>> {
  if (backend === 'dynamodb') {
    const out = await dynamo.client.send(new GetItemCommand({ TableName: 'tf-locks', Key: { LockID: { S: name } } }));
    return JSON.parse(out.Item!.Info!.S!) as Record<string, unknown>;
  }
  if (backend === 'gcs') {
    const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'test' });
    const [bytes] = await storage.bucket('tf-state').file(name).download();
    return JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  }
  const client = s3ClientFor(emulator.s3!.url);
  const out = await client.send(new GetObjectCommand({ Bucket: 'tf-state', Key: name }));
  client.destroy();
  return JSON.parse(await out.Body!.transformToString()) as Record<string, unknown>;
}

describe.each(CASES)('a hold on Terraform’s $backend backend', ({ backend, source, name }) => {
  const title = TERRAFORM
    ? 'blocks `terraform plan`, which prints the hold’s Who and Info, until unhold'
    : 'terraform is not on PATH: checks the LockInfo JSON as Terraform’s statemgr.LockInfo defines it instead';
  it(title, { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), `lockboard-hold-${backend}-`));
    writeFileSync(
      join(dir, 'main.tf'),
      `terraform {\n  ${BACKENDS[backend]()}\n}\nresource "terraform_data" "app" {\n  input = "v1"\n}\n`,
    );
    const terraform = (...args: string[]) => runTerraform(dir, ...args);
    if (TERRAFORM) expect((await terraform('init', '-input=false')).code).toBe(0);
    const held = await runCli(['hold', source, name, '--reason', REASON, '--for', '2h', '--operator', 'alice'], env);
    expect(held.code, held.stderr).toBe(0);
    const info = await lockInfoOf(backend, name);
    expect(info.Who).toMatch(/^alice \(lockboard hold until \d{4}-\d\d-\d\dT[\d:.]+Z\)$/);
    expect(info.Info).toBe(REASON);
    if (!TERRAFORM) {
      // statemgr.LockInfo: ID, Operation, Info, Who, Version (strings), Created (time.Time, RFC 3339), Path
      expect(Object.keys(info).sort()).toEqual(['Created', 'ID', 'Info', 'Operation', 'Path', 'Version', 'Who']);
      expect(info.ID).toMatch(/^[0-9a-f-]{36}$/);
      expect(String(info.Created)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      expect(info.Path).toMatch(/terraform\.tfstate$|default\.tfstate$/);
      return;
    }
    const plan = await terraform('plan', '-input=false', '-lock-timeout=0s');
    expect(plan.code, plan.out).not.toBe(0);
    expect(plan.out).toContain('Lock Info:');
    expect(plan.out).toContain(`Who:       ${String(info.Who)}`);
    expect(plan.out).toContain(`Info:      ${REASON}`);
    expect((await runCli(['unhold', source, name, '--operator', 'alice'], env)).code).toBe(0);
    const after = await terraform('plan', '-input=false', '-lock-timeout=0s');
    expect(after.code, after.out).toBe(0);
  });
});
