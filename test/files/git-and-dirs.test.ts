// git's index.lock left by a `git commit` killed with SIGKILL (held while git works in the repository, stale after),
// npm proper-lockfile's directory (its mtime heartbeat), and Terraform's local state lock where Terraform is installed.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAndWait, need, startHolder, stopAll, storeOf, tempDir, until } from './tools';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=ci', '-c', 'user.email=ci@example.com', ...args], { cwd, stdio: 'pipe' });

describe('git, proper-lockfile and Terraform locks', () => {
  let dir: string;
  beforeAll(() => {
    need('git', 'apt-get install git');
    dir = tempDir();
  });
  afterAll(async () => {
    await stopAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a git commit killed with SIGKILL leaves index.lock: held while git runs, stale after, released, git works again', async () => {
    const repo = path.join(dir, 'repo');
    fs.mkdirSync(repo);
    git(repo, 'init', '-q');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'one\n');
    git(repo, 'add', 'a.txt');
    fs.writeFileSync(path.join(repo, '.git/hooks/pre-commit'), '#!/bin/sh\necho hook\nsleep 120\n', { mode: 0o755 });
    // git runs hooks with their stdout on its stderr; exec keeps git's pid the holder's
    const commit = await startHolder('sh', ['-c', 'exec git -c user.name=ci -c user.email=ci@e commit -aqm two 2>&1'], {
      cwd: repo,
    });
    const store = storeOf(repo, '?depth=1');
    const held = await until(() => store.inspect('.git/index.lock'), 'index.lock');
    expect([held.format, held.health]).toEqual(['git', 'healthy']);
    expect(held.identity).toMatch(new RegExp(`^pid ${commit.pid} \\(git`));
    expect(held.details).toContainEqual(['Pending', 'a new index (1 entries)']);
    await killAndWait(commit);
    const stale = (await store.inspect('.git/index.lock'))!;
    expect(stale.health).toBe('expired');
    expect(stale.note).toMatch(/no git process is running/);
    expect(spawnSync('git', ['commit', '-qm', 'three'], { cwd: repo }).stderr.toString()).toMatch(
      /Unable to create .*index\.lock': File exists/,
    );
    expect(
      (await store.forceRelease({ name: '.git/index.lock', version: stale.version, reason: 't', operator: 'ci' }))
        .outcome,
    ).toBe('released');
    fs.rmSync(path.join(repo, '.git/hooks/pre-commit'));
    git(repo, 'commit', '-qm', 'three');
    expect((await store.list()).locks.map((l) => l.name)).not.toContain('.git/index.lock');
  });

  it('proper-lockfile: a directory whose mtime is refreshed is held; 10 s without refresh is stale and rmdir-released', async () => {
    const file = path.join(dir, 'db.json');
    fs.writeFileSync(file, '{}');
    const script = `require('proper-lockfile').lock(process.argv[1]).then(() => { console.log(process.pid); setInterval(() => {}, 1e6); })`;
    const holder = await startHolder(process.execPath, ['-e', script, file], { cwd: process.cwd() });
    const store = storeOf(dir);
    const fresh = (await store.inspect('db.json.lock'))!;
    expect([fresh.format, fresh.health]).toEqual(['proper-lockfile', 'healthy']);
    await killAndWait(holder);
    const past = new Date(Date.now() - 11_000);
    fs.utimesSync(`${file}.lock`, past, past); // as it is 11 s after the crash
    const stale = (await store.inspect('db.json.lock'))!;
    expect(stale.health).toBe('expired');
    const r = await store.forceRelease({ name: 'db.json.lock', version: stale.version, reason: 't', operator: 'ci' });
    expect(r.outcome).toBe('released');
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('Terraform local backend: locked only while the state file carries its POSIX lock; a leftover .lock.info is free', async () => {
    need('terraform', 'Terraform ≥ 1.10 on PATH (https://developer.hashicorp.com/terraform/install)');
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
