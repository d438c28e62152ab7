// Lockboard's own lock in a directory: held as a generation directory the store lists, a fencing token that grows,
// loss (an operator's release) pushed through the AbortSignal at the next refresh, and `lockboard run --source file://`.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { LockLostError, LockTimeoutError } from '@/lib/lock/errors';
import { acquireFileLock } from '@/lib/lock/stores/files/acquire';
import { runCli } from '../helpers/cli';
import { storeOf, tempDir } from './tools';

describe("Lockboard's own lock in a directory", () => {
  let dir: string;
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is listed as held, refuses a second holder, and loses to an operator release through its signal', async () => {
    dir = tempDir();
    const lock = await acquireFileLock({
      dir,
      name: 'deploy',
      ttlMs: 2_000,
      identity: 'ci-runner-7',
      purpose: 'deploy',
    });
    const store = storeOf(dir);
    const view = (await store.inspect('deploy.lockd'))!;
    expect([view.format, view.health, view.generation]).toEqual(['lockboard-dir', 'healthy', lock.fencingToken]);
    expect(view.details).toContainEqual(['Recorded identity', 'ci-runner-7']);
    await expect(acquireFileLock({ dir, name: 'deploy', ttlMs: 2_000, timeoutMs: 0 })).rejects.toBeInstanceOf(
      LockTimeoutError,
    );
    const lost = new Promise((r) => lock.signal.addEventListener('abort', () => r(lock.signal.reason)));
    const r = await store.forceRelease({ name: 'deploy.lockd', version: view.version, reason: 't', operator: 'ci' });
    expect(r.outcome).toBe('released');
    expect(fs.existsSync(`${dir}/deploy.lockd`)).toBe(false);
    expect(await lost).toBeInstanceOf(LockLostError); // within one refresh (ttl / 4 = 500 ms)
    const next = await acquireFileLock({ dir, name: 'deploy', ttlMs: 2_000, timeoutMs: 0 });
    expect(BigInt(next.fencingToken)).toBeGreaterThan(BigInt(lock.fencingToken));
    expect(await next.release()).toBe('released');
    expect(await lock.release()).toBe('already-lost');
  });

  it('a refresh keeps it held past its TTL; a version seen before a refresh is "refreshed", never removed', async () => {
    dir = tempDir();
    const lock = await acquireFileLock({ dir, name: 'nightly', ttlMs: 1_200 });
    const store = storeOf(dir);
    const seen = (await store.inspect('nightly.lockd'))!;
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await store.inspect('nightly.lockd'))!.health).toBe('healthy');
    const r = await store.forceRelease({ name: 'nightly.lockd', version: seen.version, reason: 't', operator: 'ci' });
    expect(r.outcome).toBe('refreshed');
    expect(lock.signal.aborted).toBe(false);
    await lock.release();
  });

  it('lockboard run --source file:///DIR holds it for the command and gives it the fencing token', async () => {
    dir = tempDir();
    const r = await runCli(
      [
        'run',
        '--source',
        `file://${dir}`,
        'job',
        '--',
        'sh',
        '-c',
        `ls ${dir}/job.lockd; echo token=$LOCKBOARD_FENCING_TOKEN`,
      ],
      {},
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\.json\ntoken=\d{19}/);
    expect(fs.existsSync(`${dir}/job.lockd`)).toBe(false);
    const events = await storeOf(dir).readAudit(new Date(Date.now() - 60_000), new Date(Date.now() + 1_000));
    expect(events.map((e) => e.event)).toEqual(['acquired', 'released']);
  });
});
