// Terraform's local backend as the lock-file store reads it (run where Terraform is installed: test/helpers/tools.ts):
// locked only while the state file carries terraform's POSIX lock; after kill -9 the .lock.info left behind is free.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHolder, stopAll, storeOf, tempDir, until } from '../files/tools';

describe('Terraform local state lock', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
  });
  afterAll(async () => {
    await stopAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('Terraform local backend: locked only while the state file carries its POSIX lock; a leftover .lock.info is free', async () => {
    const tf = path.join(dir, 'tf');
    fs.mkdirSync(tf);
    fs.writeFileSync(
      path.join(tf, 'main.tf'),
      'resource "terraform_data" "sleep" {\n  input = timestamp()\n  provisioner "local-exec" { command = "echo started; sleep 120" }\n}\n',
    );
    const env = { ...process.env, TF_CLI_CONFIG_FILE: '/dev/null', CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1' };
    execFileSync('terraform', ['init', '-no-color'], { cwd: tf, env, stdio: 'pipe' });
    const apply = await startHolder(
      'sh',
      ['-c', 'exec terraform apply -auto-approve -no-color | grep --line-buffered started'],
      { cwd: tf },
    );
    const store = storeOf(tf);
    const held = await until(() => store.inspect('.terraform.tfstate.lock.info'), 'the lock info');
    expect([held.format, held.health]).toEqual(['terraform-local', 'healthy']);
    expect(held.identity).toMatch(/\(terraform/);
    expect(held.releaseNote).toMatch(/two holders/);
    await stopAll(); // kill -9 terraform: the kernel drops its lock, the info file stays
    void apply;
    const leftover = await until(async () => {
      const v = await store.inspect('.terraform.tfstate.lock.info');
      return v?.health === 'free' ? v : null;
    }, 'the lock to be dropped');
    expect(leftover.note).toMatch(/leftover/);
  }, 60_000);
});
