// git's index.lock left by a `git commit` killed with SIGKILL (held while git works in the repository, stale after),
// and npm proper-lockfile's directory (its mtime heartbeat). Terraform's local state lock: test/interop/terraform-local.test.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAndWait, need, startHolder, stopAll, storeOf, tempDir, until } from './tools';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=ci', '-c', 'user.email=ci@example.com', ...args], { cwd, stdio: 'pipe' });

describe('git and proper-lockfile locks', () => {
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
});
