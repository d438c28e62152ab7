// Mercurial's `wlock` and `store/lock` written by real hg (Debian's mercurial): a commit held in its precommit hook
// keeps both symlinks (`<host>/<pid-ns>:<pid>`); while it runs the store names it and refuses a release, and after
// SIGKILL both are stale by hg's own rule (same host and namespace, pid gone), which hg itself then confirms by
// breaking the lock the store left.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAndWait, need, startHolder, stopAll, storeOf, tempDir } from './tools';

const hg = (repo: string, ...args: string[]) =>
  spawnSync('hg', ['--cwd', repo, '--config', 'ui.username=ci <ci@example.invalid>', ...args], {
    encoding: 'utf8',
    env: { ...process.env, HGPLAIN: '1', HGRCPATH: '' },
  });

describe('Mercurial locks left by real hg', () => {
  let dir: string;
  let repo: string;
  beforeAll(() => {
    need('hg', 'apt-get install mercurial');
    dir = tempDir();
    repo = path.join(dir, 'site');
    expect(hg(dir, 'init', repo).status).toBe(0);
    fs.writeFileSync(path.join(repo, 'a.txt'), 'one\n');
    expect(hg(repo, 'add', 'a.txt').status).toBe(0);
  });
  afterAll(async () => {
    await stopAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a live hg commit is named and its release refused; after kill -9 both locks are stale and hg agrees', async () => {
    // the hook runs with wlock and store/lock held; "held" on stdout says so
    const committer = await startHolder('hg', [
      '--cwd',
      repo,
      '--config',
      'ui.username=ci <ci@example.invalid>',
      '--config',
      'hooks.precommit=echo held; sleep 120',
      'commit',
      '-m',
      'held',
    ]);
    const pid = String(committer.pid);
    const ns = fs.statSync('/proc/self/ns/pid').ino.toString(16);
    expect(fs.readlinkSync(path.join(repo, '.hg/wlock'))).toBe(`${os.hostname()}/${ns}:${pid}`); // hg wrote it

    const store = storeOf(path.join(repo, '.hg'), '?depth=1');
    const names = (await store.list()).locks.map((l) => [l.name, l.format, l.health, l.pid]);
    expect(names).toEqual([
      ['store/lock', 'mercurial', 'healthy', pid],
      ['wlock', 'mercurial', 'healthy', pid],
    ]);
    const live = (await store.inspect('wlock'))!;
    expect(live.identity).toMatch(new RegExp(`^pid ${pid} \\(hg, user \\w+, started `));
    const refused = await store.forceRelease({ name: 'wlock', version: live.version, reason: 't', operator: 'ci' });
    expect(refused.outcome).toBe('refreshed');
    expect(refused.detail).toMatch(new RegExp(`pid ${pid} .*two holders`));
    expect(fs.lstatSync(path.join(repo, '.hg/wlock')).isSymbolicLink()).toBe(true);
    // hg's own view while it runs: another hg cannot take the lock
    expect(hg(repo, '--config', 'ui.timeout=0', 'commit', '-m', 'second').status).not.toBe(0);

    await killAndWait(committer); // SIGKILL: hg cannot remove its symlinks
    await stopAll(); // the hook's sleep
    const stale = (await store.inspect('wlock'))!;
    expect([stale.health, stale.version]).toEqual(['expired', live.version]);
    expect(stale.note).toMatch(new RegExp(`pid ${pid} is not running; the next hg breaks it`));
    expect((await store.inspect('store/lock'))!.health).toBe('expired');
    const done = await store.forceRelease({ name: 'wlock', version: stale.version, reason: 't', operator: 'ci' });
    expect(done.outcome).toBe('released');
    expect(fs.existsSync(path.join(repo, '.hg/wlock'))).toBe(false);
    // the store/lock left in place: hg (no waiting) breaks it by the same rule and commits
    const commit = hg(repo, '--config', 'ui.timeout=0', 'commit', '-m', 'after the crash');
    expect([commit.status, commit.stderr]).toEqual([0, '']);
    expect(fs.existsSync(path.join(repo, '.hg/store/lock'))).toBe(false);
  });

  it('a lock from another pid namespace on this host (a container) is unknown, not stale', async () => {
    fs.symlinkSync(`${os.hostname()}/1234abcd:999999`, path.join(dir, 'wlock'));
    const v = (await storeOf(dir).inspect('wlock'))!;
    expect([v.format, v.health]).toEqual(['mercurial', 'unknown']);
    expect(v.note).toMatch(/another pid namespace \(1234abcd/);
  });
});
