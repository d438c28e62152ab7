// Locks changed by hand, with the requests `gcloud storage rm` / `objects update` send: the holder notices within one
// refresh interval and stops, and a generation-conditioned rm never deletes a successor's lock.
import { afterEach, describe, expect, it } from 'vitest';
import { acquireLock, getLock, LockLostError } from '@/lib/lock';
import { runCli, startCli } from '../helpers/cli';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { abortedWithin, delay } from '../helpers/requests';
import { freezeHolder } from '../helpers/lock';

let t: Target;
afterEach(async () => {
  await t.close();
});

const path = (name: string, query = '') =>
  `${t.emulator!.url}/storage/v1/b/${t.bucket}/o/${encodeURIComponent(name)}?alt=json${query}`;
/** A held lock refreshing every 400 ms. */
const holder = (name: string) =>
  acquireLock({ storage: t.storage, bucket: t.bucket, name, ttlMs: 4000, refreshIntervalMs: 400, audit: false });
/** `gcloud storage rm gs://bucket/name [--if-generation-match=G]` */
const gcloudRm = (name: string, generation?: string) =>
  fetch(path(name, generation ? `&ifGenerationMatch=${generation}` : ''), { method: 'DELETE' });

describe('hand operations on live locks', () => {
  it('gcloud storage rm of a held lock: the holder aborts with released-by-operator within one refresh', async () => {
    t = await startTestEmulator();
    const lock = await holder('locks/by-hand');
    expect((await gcloudRm('locks/by-hand')).status).toBe(204);
    const waited = await abortedWithin(lock.signal, 2000);
    expect(waited).toBeLessThan(400 + 300);
    expect(lock.signal.reason).toBeInstanceOf(LockLostError);
    expect((lock.signal.reason as LockLostError).reason).toBe('released-by-operator');
  });

  it('lockboard run exits 76 when its lock is removed by hand', async () => {
    t = await startTestEmulator();
    const env = { LOCKBOARD_BUCKET: t.bucket, LOCKBOARD_GCS_ENDPOINT: t.emulator!.url };
    const running = startCli(
      ['run', 'job', '--ttl', '3s', '--', process.execPath, '-e', 'setInterval(() => {}, 1000)'],
      env,
    );
    let held = null;
    for (let i = 0; i < 50 && !held; i++) {
      held = await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/job' });
      if (!held) await delay(100);
    }
    expect(held).not.toBeNull();
    expect((await gcloudRm('locks/job')).status).toBe(204);
    const result = await running.done;
    expect(result.code).toBe(76);
    expect(result.stderr).toMatch(/released-by-operator/);
  });

  it('gcloud storage rm --if-generation-match=<old> after a takeover deletes nothing', async () => {
    t = await startTestEmulator();
    const base = { storage: t.storage, bucket: t.bucket, name: 'locks/taken', audit: false as const };
    const crashed = await acquireLock({ ...base, ttlMs: 1000 });
    freezeHolder(crashed);
    const successor = await acquireLock({ ...base, identity: 'successor', ttlMs: 60_000 });
    expect(successor.generation).not.toBe(crashed.generation);
    const res = await gcloudRm('locks/taken', crashed.generation);
    expect(res.status).toBe(412);
    expect((await getLock(base))?.generation).toBe(successor.generation);
    expect(successor.signal.aborted).toBe(false);
    await successor.release();
    // and the status command tells an operator which generation to pass
    const status = await runCli(['status', 'taken', '--json'], {
      LOCKBOARD_BUCKET: t.bucket,
      LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    });
    expect(status.code).toBe(10);
  });

  it('a hand edit of the metadata (objects update --custom-metadata): the holder notices at its next refresh and stops', async () => {
    t = await startTestEmulator();
    const lock = await holder('locks/edited');
    const res = await fetch(path('locks/edited'), {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { identity: 'someone-else' } }),
    });
    expect(res.status).toBe(200);
    await abortedWithin(lock.signal, 2000);
    expect((lock.signal.reason as LockLostError).reason).toBe('taken');
    expect((lock.signal.reason as LockLostError).message).toMatch(/changed/);
    // it does not delete what is no longer its lock
    expect(await lock.release()).toEqual({ outcome: 'lost' });
    expect((await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/edited' }))?.identity).toBe(
      'someone-else',
    );
  });
});
