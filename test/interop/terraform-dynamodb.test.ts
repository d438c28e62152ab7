// Terraform's S3 backend with `dynamodb_table` (state in the emulator's S3, the lock in dynalite): its lock item is
// shown by `lockboard ls dynamodb://…` in Terraform's terms while an apply runs, its `-md5` digest never; with
// use_lockfile as well (the migration window) the same lock shows in both stores. Runs where `terraform` is on PATH.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { runCli } from '../helpers/cli';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';
import { delay } from '../helpers/requests';
import { runTerraform } from '../helpers/terraform';

let emulator: Emulator;
let d: TestDynamo;
const dir = mkdtempSync(join(tmpdir(), 'lockboard-terraform-dynamodb-'));

const config = () => `terraform {
  backend "s3" {
    bucket                      = "tf-state"
    key                         = "envs/prod/terraform.tfstate"
    region                      = "us-east-1"
    dynamodb_table              = "tf-locks"
    use_lockfile                = true
    endpoints                   = { s3 = "${emulator.s3!.url}", dynamodb = "${d.url}" }
    use_path_style              = true
    access_key                  = "test"
    secret_key                  = "test"
    skip_credentials_validation = true
    skip_requesting_account_id  = true
    skip_metadata_api_check     = true
    skip_region_validation      = true
    skip_s3_checksum            = true
  }
}
resource "terraform_data" "app" {
  input            = "v1"
  triggers_replace = [timestamp()]
  provisioner "local-exec" {
    command = "sleep 6"
  }
}
`;

const terraform = (...args: string[]) => runTerraform(dir, ...args);
type Listing = {
  locks: { name: string; format: string; identity: string; details: [string, string][] }[];
  skipped: number;
};

beforeAll(async () => {
  emulator = await startEmulator({ s3: { buckets: ['tf-state'] } });
  d = await startDynamo();
  await d.table('tf-locks', 'LockID');
  writeFileSync(join(dir, 'main.tf'), config());
});
afterAll(async () => {
  await d?.stop();
  await emulator?.close();
});

describe("Terraform's S3 backend with dynamodb_table (and use_lockfile) against the emulator and dynalite", () => {
  it('holds its lock in both stores during an apply, each shown by lockboard ls in Terraform’s terms', async () => {
    const init = await terraform('init', '-input=false');
    expect(init.code, init.out).toBe(0);
    const apply = terraform('apply', '-auto-approve', '-input=false');
    const env = { AWS_ENDPOINT_URL_S3: emulator.s3!.url, AWS_ENDPOINT_URL_DYNAMODB: d.url, AWS_REGION: 'us-east-1' };
    let items: Listing = { locks: [], skipped: 0 };
    for (let i = 0; i < 80 && items.locks.length === 0; i++) {
      items = JSON.parse((await runCli(['ls', 'dynamodb://tf-locks', '--json'], env)).stdout) as Listing;
      if (items.locks.length === 0) await delay(100);
    }
    expect(items.locks.map((l) => [l.name, l.format])).toEqual([['tf-state/envs/prod/terraform.tfstate', 'terraform']]);
    const item = items.locks[0]!;
    expect(item.identity).toMatch(/@/);
    const id = item.details.find(([k]) => k === 'Terraform lock info ID')?.[1];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const file = JSON.parse((await runCli(['ls', 's3://tf-state/envs/', '--json'], env)).stdout) as Listing;
    // the migration window: the same LockInfo in both stores
    expect(file.locks.map((l) => l.details.find(([k]) => k === 'Terraform lock info ID')?.[1])).toEqual([id]);
    const done = await apply;
    expect(done.code, done.out).toBe(0);
    const after = JSON.parse((await runCli(['ls', 'dynamodb://tf-locks', '--json'], env)).stdout) as Listing;
    expect(after.locks).toEqual([]);
    expect(after.skipped).toBe(1); // the state's -md5 digest: never a lock
  }, 120_000);
});
