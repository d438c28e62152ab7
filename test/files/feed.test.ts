// The directory's change feed: fs.watch names the lock that changed (a file in a lock directory is that directory's
// change), and a kernel lock taken without touching the file is reported through the lock table's poll.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeFeed } from '@/lib/lock/store';
import { lockNameOf } from '@/lib/lock/stores/files/feed';
import { MACHINE_LOCK, PYTHON, startHolder, stopAll, storeOf, tempDir, until } from './tools';

describe('the lock-file change feed', () => {
  let dir: string;
  let feed: ChangeFeed | null = null;
  afterEach(async () => {
    await feed?.stop();
    await stopAll();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('maps an event to its lock, and leaves out Lockboard’s own files', () => {
    expect(lockNameOf('job.lockd/host-1-1-ab.json')).toBe('job.lockd');
    expect(lockNameOf('repo/.git/index.lock')).toBe('repo/.git/index.lock');
    expect(lockNameOf('db.json.lock')).toBe('db.json.lock');
    expect(lockNameOf('.lockboard/audit.jsonl')).toBeNull();
    expect(lockNameOf('.job.lock.lockboard-release-1-00ff')).toBeNull();
  });

  it('reports a created and a removed lock file within a second, and a flock taken on a kept file', async () => {
    dir = tempDir();
    fs.writeFileSync(`${dir}/kept.lock`, '');
    const changed: string[] = [];
    const missed: string[] = [];
    feed = await storeOf(dir).changes!({ changed: (n) => changed.push(...n), missed: (why) => missed.push(why) });
    expect(feed?.description).toMatch(/fs\.watch/);
    const t0 = Date.now();
    fs.writeFileSync(`${dir}/job.lock`, '');
    await until(() => changed.includes('job.lock'), 'the create');
    expect(Date.now() - t0).toBeLessThan(1_000);
    changed.length = 0;
    fs.unlinkSync(`${dir}/job.lock`);
    await until(() => changed.includes('job.lock'), 'the removal');
    const holder = spawn('flock', [`${dir}/kept.lock`, 'sleep', '5'], { stdio: 'ignore' });
    try {
      await until(() => missed.some((m) => /kernel lock/.test(m)), 'the flock', 3_000);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('a holder that created its file after the last scan is named, not called stale (the feed reads it at once)', async () => {
    dir = tempDir();
    fs.writeFileSync(`${dir}/old.lock`, '');
    const store = storeOf(dir);
    expect((await store.inspect('old.lock'))!.health).toBe('expired'); // a scan, reused for a burst of changes
    const t0 = Date.now();
    const holder = await startHolder(PYTHON, ['-c', MACHINE_LOCK, 'new', dir]);
    const v = (await store.inspect('new.lock'))!;
    console.log(`holder started and inspected ${Date.now() - t0} ms after the last scan (reuse window 250 ms)`);
    expect([v.health, v.pid]).toEqual(['healthy', String(holder.pid)]);
  });
});
