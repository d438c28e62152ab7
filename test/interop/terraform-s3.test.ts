// Terraform's S3 backend with native locking (use_lockfile = true, Terraform ≥ 1.10) against the emulator's S3 side:
// init, apply, state list, and the .tflock it holds during an apply shown by `lockboard ls s3://…` in Terraform's
// own terms. Runs where `terraform` is on PATH; never required (test/s3 covers the formats everywhere).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { runCli } from '../helpers/cli';
import { delay } from '../helpers/requests';
import { runTerraform } from '../helpers/terraform';

let emulator: Emulator;
const dir = mkdtempSync(join(tmpdir(), 'lockboard-terraform-s3-'));

function config(): string {
  return `terraform {
  backend "s3" {
    bucket                      = "tf-state"
    key                         = "envs/prod/terraform.tfstate"
    region                      = "us-east-1"
    use_lockfile                = true
    endpoints                   = { s3 = "${emulator.s3!.url}" }
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
}

const terraform = (...args: string[]) => runTerraform(dir, ...args);

beforeAll(async () => {
  emulator = await startEmulator({ s3: { buckets: ['tf-state'] } });
  writeFileSync(join(dir, 'main.tf'), config());
});
afterAll(() => emulator?.close());

describe("Terraform's S3 backend (use_lockfile) against the emulator", () => {
  it('inits, applies and lists its state; its lock is shown by lockboard ls s3:// while the apply runs', async () => {
    const init = await terraform('init', '-input=false');
    expect(init.code, init.out).toBe(0);
    const apply = terraform('apply', '-auto-approve', '-input=false');
    const env = { AWS_ENDPOINT_URL_S3: emulator.s3!.url, AWS_REGION: 'us-east-1' };
    let listed: { locks: { name: string; format: string; identity: string; details: [string, string][] }[] } = {
      locks: [],
    };
    for (let i = 0; i < 50 && listed.locks.length === 0; i++) {
      const ls = await runCli(['ls', 's3://tf-state/envs/', '--json'], env);
      listed = JSON.parse(ls.stdout) as typeof listed;
      if (listed.locks.length === 0) await delay(100);
    }
    expect(listed.locks.map((l) => [l.name, l.format])).toEqual([['envs/prod/terraform.tfstate.tflock', 'terraform']]);
    const lock = listed.locks[0]!;
    expect(lock.identity).toMatch(/@/); // Terraform's Who: user@host
    expect(lock.details).toContainEqual(['Operation', 'OperationTypeApply']);
    expect(lock.details.find(([k]) => k === 'Equivalent command')?.[1]).toMatch(
      /^terraform force-unlock [0-9a-f-]{36}$/,
    );
    const done = await apply;
    expect(done.code, done.out).toBe(0);
    expect((await terraform('state', 'list')).out.trim()).toBe('terraform_data.app');
    // released: the lockfile is gone, the state stays (a data object, never listed)
    const after = JSON.parse((await runCli(['ls', 's3://tf-state/envs/', '--json'], env)).stdout) as {
      locks: unknown[];
      skipped: number;
    };
    expect(after).toMatchObject({ locks: [], skipped: 1 });
  }, 120_000);
});
