// Terraform's own azurerm backend against Azurite (the recipe of facts-azure.md §1.7), where the terraform CLI is
// installed (LOCKBOARD_REQUIRE_TOOLS=terraform makes its absence a failure): an apply holds the state lock, is killed
// with SIGKILL, Lockboard lists the stuck lease with Terraform's LockInfo, releases it by the version it showed, and
// the next `terraform plan` runs. Lockboard's CLI reaches the HTTPS Azurite with NODE_EXTRA_CA_CERTS.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAzurite, type TestAzurite } from '../helpers/azurite';
import { runCli } from '../helpers/cli';
import { delay } from '../helpers/requests';
import { hasTool, requiredTools } from '../helpers/tools';
import { makeCertificates, tunnelTo } from './terraform-tls';

const ACCOUNT = 'lockboardtest';
const KEY = randomBytes(32).toString('base64');
const SOURCE = `azure://${ACCOUNT}/tfstate/`;
const present = hasTool('terraform');
if (!present && requiredTools().includes('terraform'))
  throw new Error('This test needs Terraform ≥ 1.10 on PATH (https://developer.hashicorp.com/terraform/install).');

const MAIN_TF = `terraform {
  backend "azurerm" {
    storage_account_name = "${ACCOUNT}"
    container_name       = "tfstate"
    key                  = "prod.terraform.tfstate"
    access_key           = "${KEY}"
    use_azuread_auth     = false
  }
}
resource "terraform_data" "slow" {
  input = "v1"
  provisioner "local-exec" {
    command = "sleep 40"
  }
}
`;

describe.skipIf(!present)('Terraform azurerm against Azurite', () => {
  let dir: string;
  let az: TestAzurite;
  let proxy: Awaited<ReturnType<typeof tunnelTo>>;
  let tls: ReturnType<typeof makeCertificates>;
  let tfEnv: Record<string, string>;
  let cliEnv: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lockboard-tf-azure-'));
    tls = makeCertificates(dir);
    az = await startAzurite({ https: { cert: tls.cert, key: tls.key }, accounts: `${ACCOUNT}:${KEY}` });
    proxy = await tunnelTo(az.port);
    const cs = `DefaultEndpointsProtocol=https;AccountName=${ACCOUNT};AccountKey=${KEY};BlobEndpoint=https://127.0.0.1:${az.port}/${ACCOUNT};`;
    cliEnv = { AZURE_STORAGE_CONNECTION_STRING: cs, NODE_EXTRA_CA_CERTS: tls.ca };
    // the container, with the SDK in a process that trusts the throwaway CA
    const made = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { BlobServiceClient as B } from '@azure/storage-blob';
        await B.fromConnectionString(process.env.AZURE_STORAGE_CONNECTION_STRING).getContainerClient('tfstate').create();`,
      ],
      { env: { ...process.env, ...cliEnv }, encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`creating the container: ${made.stderr}`);
    writeFileSync(join(dir, 'main.tf'), MAIN_TF);
    tfEnv = {
      HTTPS_PROXY: proxy.url,
      SSL_CERT_FILE: tls.ca,
      TF_CLI_CONFIG_FILE: '/dev/null',
      TF_IN_AUTOMATION: '1',
      CHECKPOINT_DISABLE: '1',
    };
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await az?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const terraform = (...args: string[]) => {
    const child = spawn('terraform', [...args, '-no-color'], {
      cwd: dir,
      env: { ...process.env, ...tfEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: a SIGKILL to the group ends the apply and its local-exec together
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const done = new Promise<{ code: number | null; out: string }>((resolve) =>
      child.on('close', (code) => resolve({ code, out })),
    );
    return { child, done, output: () => out };
  };
  const cli = (...args: string[]) => runCli(args, cliEnv);

  it('lists the lease a killed apply left, releases it by the version shown, and the next plan runs', async () => {
    const init = await terraform('init', '-input=false').done;
    expect(init.code, init.out).toBe(0);
    const apply = terraform('apply', '-auto-approve', '-input=false');
    let view: { version: string; identity: string; format: string } | undefined;
    for (let i = 0; i < 120 && !view; i++) {
      const s = await cli('status', SOURCE, 'prod.terraform.tfstate', '--json');
      if (s.code === 0) view = JSON.parse(s.stdout) as typeof view;
      else await delay(500);
    }
    expect(view, apply.output()).toMatchObject({ format: 'terraform' });
    for (let i = 0; i < 60 && !/Provisioning with 'local-exec'|Creating\.\.\./.test(apply.output()); i++)
      await delay(500);
    process.kill(-apply.child.pid!, 'SIGKILL');
    await apply.done;
    const locked = await terraform('plan', '-lock-timeout=0s', '-input=false').done;
    expect(locked.out).toMatch(/state blob is already locked/);
    const ls = await cli('ls', SOURCE);
    expect(ls.stdout).toMatch(/prod\.terraform\.tfstate/);
    const seen = JSON.parse((await cli('status', SOURCE, 'prod.terraform.tfstate', '--json')).stdout) as {
      version: string;
      identity: string;
    };
    expect(seen.version).toBe(view!.version);
    expect(seen.identity).toMatch(/@/); // Terraform's Who: user@host
    const r = await cli(
      'release',
      SOURCE,
      'prod.terraform.tfstate',
      '--version',
      seen.version,
      '--reason',
      'killed apply',
      '--operator',
      'ci',
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const plan = await terraform('plan', '-lock-timeout=0s', '-input=false').done;
    expect(plan.code, plan.out).toBe(0);
  }, 240_000);
});
