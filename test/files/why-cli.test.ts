// lockboard why / status / release --if-gone on lock files held by the seed's MachineLock in Debian's python3: the
// same verdict the console shows, the exit codes of the issue, and --if-gone refusing a live holder and releasing a
// dead one.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { killAndWait, MACHINE_LOCK, need, PYTHON, startHolder, stopAll, tempDir } from './tools';

describe('lockboard why and release --if-gone on lock files', () => {
  let dir: string;
  const env = {};
  beforeAll(() => {
    need(PYTHON, 'apt-get install python3');
    dir = tempDir();
  });
  afterAll(async () => {
    await stopAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('says alive, then refuses --if-gone (11, nothing touched); once killed says gone and --if-gone releases', async () => {
    const src = `file://${dir}`;
    const holder = await startHolder(PYTHON, ['-c', MACHINE_LOCK, 'job', dir]);
    const why = await runCli(['why', src, 'job.lock', '--json'], env);
    expect(why.code).toBe(0);
    const body = JSON.parse(why.stdout) as Record<string, unknown>;
    expect(body).toMatchObject({ name: 'job.lock', verdict: 'alive', sentence: expect.stringMatching(/^Alive: pid/) });
    expect(Object.keys(body).sort()).toEqual(['evidence', 'name', 'sentence', 'source', 'verdict']);
    const ls = await runCli(['ls', src, '--verdict', 'alive', '--json'], env);
    expect(ls.code).toBe(0);
    expect(JSON.parse(ls.stdout).locks.map((l: { name: string }) => l.name)).toEqual(['job.lock']);
    const refused = await runCli(['release', src, 'job.lock', '--if-gone', '--reason', 'test'], env);
    expect(refused.code).toBe(11);
    expect(refused.stdout).toMatch(/judged alive/);
    expect(fs.existsSync(path.join(dir, 'job.lock'))).toBe(true);
    await killAndWait(holder);
    const text = await runCli(['why', src, 'job.lock'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Holder gone: /);
    const released = await runCli(['release', src, 'job.lock', '--if-gone', '--reason', 'holder died'], env);
    expect(released.code).toBe(0);
    expect(fs.existsSync(path.join(dir, 'job.lock'))).toBe(false);
    const free = await runCli(['why', src, 'job.lock'], env);
    expect(free.code).toBe(10);
    const usage = await runCli(['why', src, 'job.lock', '--nope'], env);
    expect(usage.code).toBe(2);
  });
});
