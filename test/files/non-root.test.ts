// A console that is not root cannot read other users' open files: an O_EXCL holder (the seed's MachineLock, run by
// root) is then "unknown" with the reason, never "stale"; a flock holder is still named (/proc/locks is world-readable).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MACHINE_LOCK, need, PYTHON, startHolder, stopAll, tempDir } from './tools';

const WORKER = new URL('./list-worker.ts', import.meta.url).pathname;

describe('listing as a user who cannot see the holders', () => {
  let dir: string;
  beforeAll(() => {
    need('setpriv', 'apt-get install util-linux');
    if (process.getuid?.() !== 0)
      throw new Error('this test starts holders as root and lists as nobody: run it as root');
    dir = tempDir();
    fs.chmodSync(dir, 0o755);
  });
  afterAll(async () => {
    await stopAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('says unknown for an O_EXCL holder it cannot see, and names a flock holder', async () => {
    await startHolder(PYTHON, ['-c', MACHINE_LOCK, 'job', dir]);
    const flock = await startHolder('sh', ['-c', `echo held; exec flock ${dir}/kernel.lock sleep 120`]);
    const r = spawnSync(
      'setpriv',
      ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '--import', 'tsx', WORKER, dir],
      { encoding: 'utf8', cwd: process.cwd() },
    );
    expect(r.status, r.stderr).toBe(0);
    const locks = new Map((JSON.parse(r.stdout) as string[][]).map(([name, ...rest]) => [name, rest]));
    const [health, , note] = locks.get('job.lock')!;
    expect(health).toBe('unknown');
    expect(note).toMatch(/cannot be read as uid 65534: run as root/);
    expect(locks.get('kernel.lock')!.slice(0, 2)).toEqual(['healthy', expect.stringMatching(`^pid ${flock.pid} `)]);
  });
});
