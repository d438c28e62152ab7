// Terraform's own gcs backend (Google's Go client: JSON API writes, XML API reads) against the emulator: init, apply,
// state list, an unchanged plan, and a plan during a held apply that prints Terraform's Lock Info with the lock's
// generation as its ID; Lockboard sees the same lock with the same owner. Runs where `terraform` is on PATH; it is
// never required (test/emulator/xml-reads.test.ts replays the Go client's reads everywhere).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { listLocks } from '@/lib/lock';
import { delay } from '../helpers/requests';
import { runTerraform } from '../helpers/terraform';

let gcs: Emulator;
let storage: Storage;
const dir = mkdtempSync(join(tmpdir(), 'lockboard-terraform-'));

function config(sleepSeconds: number): string {
  return `terraform {
  backend "gcs" {
    bucket                  = "tf-state"
    prefix                  = "prod"
    storage_custom_endpoint = "${gcs.url}/storage/v1/"
    access_token            = "anything"
  }
}
resource "terraform_data" "app" {
  input = "v1"
${sleepSeconds ? `  triggers_replace = [timestamp()]\n  provisioner "local-exec" {\n    command = "sleep ${sleepSeconds}"\n  }\n` : ''}}
`;
}

const terraform = (...args: string[]) => runTerraform(dir, ...args);

beforeAll(async () => {
  gcs = await startEmulator({ buckets: ['tf-state'] });
  storage = new Storage({ apiEndpoint: gcs.url, projectId: 'terraform' });
});
afterAll(() => gcs?.close());

describe("Terraform's gcs backend against the emulator", () => {
  it('keeps its state: init, apply, state list, then a plan with no changes', async () => {
    writeFileSync(join(dir, 'main.tf'), config(0));
    const init = await terraform('init', '-input=false');
    expect(init.code, init.out).toBe(0);
    const apply = await terraform('apply', '-auto-approve', '-input=false');
    expect(apply.code, apply.out).toBe(0);
    const list = await terraform('state', 'list');
    expect(list.out.trim()).toBe('terraform_data.app');
    const plan = await terraform('plan', '-input=false', '-detailed-exitcode');
    expect(plan.out).toContain('No changes');
    expect(plan.code, plan.out).toBe(0);
    // the state body was read through the XML API, "/" sent as %2F
    expect(
      gcs.requests.entries.some((r) => r.method === 'GET' && /^\/tf-state\/prod(%2F|\/)default\.tfstate$/.test(r.path)),
    ).toBe(true);
  });

  it('prints Lock Info with the generation as its ID during a held apply, and Lockboard shows the same lock', async () => {
    writeFileSync(join(dir, 'main.tf'), config(8));
    const apply = terraform('apply', '-auto-approve', '-input=false');
    let lock;
    for (let i = 0; i < 100 && !lock; i++) {
      const { locks } = await listLocks({ storage, bucket: 'tf-state', prefix: 'prod/' });
      lock = locks.find((l) => l.name === 'prod/default.tflock');
      if (!lock) await delay(100);
    }
    expect(lock, 'the apply took its lock').toBeDefined();
    expect(lock!.format).toBe('terraform');
    const plan = await terraform('plan', '-input=false', '-lock-timeout=0s');
    expect(plan.code).not.toBe(0);
    expect(plan.out).toContain('Lock Info:');
    expect(plan.out).toMatch(new RegExp(`ID:\\s+${lock!.generation}`));
    expect(plan.out).toContain('OperationTypeApply');
    expect(plan.out).toContain(`Who:       ${lock!.identity}`);
    const done = await apply;
    expect(done.code, done.out).toBe(0);
    const { locks } = await listLocks({ storage, bucket: 'tf-state', prefix: 'prod/' });
    expect(locks.map((l) => l.name)).not.toContain('prod/default.tflock');
  });
});
