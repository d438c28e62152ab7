// Google's own `gcloud storage` against the emulator, checked through the official Node client, and hand operations
// on live locks driven with gcloud. Runs where the Google Cloud CLI is installed (the machine image has it; CI
// requires it); test/emulator/gcloud-shapes.test.ts replays gcloud's captured requests everywhere else.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Storage } from '@google-cloud/storage';
import { afterAll, describe, it } from 'vitest';
import { startEmulator } from '@/lib/emulator';
import { acquireLock, getLock, LockLostError, type Lock } from '@/lib/lock';

const emulator = await startEmulator({ buckets: ['interop'] });
afterAll(() => emulator.close());
const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'interop' });
const bucket = 'interop';
const dir = mkdtempSync(join(tmpdir(), 'lockboard-gcloud-'));
const env = {
  ...process.env,
  CLOUDSDK_API_ENDPOINT_OVERRIDES_STORAGE: `${emulator.url}/`,
  CLOUDSDK_AUTH_DISABLE_CREDENTIALS: 'true',
  CLOUDSDK_CORE_PROJECT: 'lockboard-interop',
  CLOUDSDK_CORE_DISABLE_PROMPTS: '1',
};
const gs = (name: string) => `gs://${bucket}/${name}`;
const file = (name: string) => storage.bucket(bucket).file(name);
/** gcloud without blocking this process: the emulator it talks to runs here. */
const gcloud = (...args: string[]) =>
  new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn('gcloud', args, { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      setTimeout(() => resolve({ code, out, err }), 50);
    });
  });
const abortedWithin = (lock: Lock, ms: number) =>
  new Promise<void>((resolve, reject) => {
    if (lock.signal.aborted) return resolve();
    const timer = setTimeout(() => reject(new Error(`the holder did not notice within ${ms} ms`)), ms);
    lock.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()));
  });

const checks: [string, () => Promise<void>][] = [
  [
    'cp (multipart and resumable), ls, cat, describe',
    async () => {
      writeFileSync(join(dir, 'h.txt'), 'hello\n');
      writeFileSync(join(dir, 'big.bin'), Buffer.alloc(12 * 1024 * 1024, 3));
      assert.equal((await gcloud('storage', 'cp', 'h.txt', gs('locks/h'))).code, 0);
      assert.equal((await gcloud('storage', 'cp', 'big.bin', gs('big.bin'))).code, 0);
      assert.equal((await file('big.bin').getMetadata())[0].size, String(12 * 1024 * 1024));
      assert.equal((await gcloud('storage', 'ls', gs('locks/'))).out.trim(), gs('locks/h'));
      assert.equal((await gcloud('storage', 'cat', gs('locks/h'))).out, 'hello\n');
      const described = JSON.parse(
        (await gcloud('storage', 'objects', 'describe', gs('locks/h'), '--format=json')).out,
      );
      assert.equal(described.name, 'locks/h');
      assert.equal((await gcloud('storage', 'cp', gs('big.bin'), 'back.bin')).code, 0);
      assert.equal(readFileSync(join(dir, 'back.bin')).length, 12 * 1024 * 1024);
    },
  ],
  [
    'objects update --custom-metadata (--if-metageneration-match), temporary holds, rm with and without preconditions',
    async () => {
      const update = (...a: string[]) => gcloud('storage', 'objects', 'update', gs('locks/h'), ...a);
      assert.equal((await update('--custom-metadata=owner=ann', '--if-metageneration-match=1')).code, 0);
      assert.match((await update('--custom-metadata=owner=bob', '--if-metageneration-match=1')).err, /412/);
      assert.deepEqual((await file('locks/h').getMetadata())[0].metadata, { owner: 'ann' });
      assert.equal((await update('--temporary-hold')).code, 0);
      assert.match((await gcloud('storage', 'rm', gs('locks/h'))).err, /403/);
      assert.equal((await update('--no-temporary-hold')).code, 0);
      assert.match((await gcloud('storage', 'rm', '--if-generation-match=1', gs('locks/h'))).err, /412/);
      assert.equal((await gcloud('storage', 'rm', gs('locks/h'))).code, 0);
      assert.equal((await file('locks/h').exists())[0], false);
    },
  ],
  [
    'rm of a held lock: the holder aborts with released-by-operator',
    async () => {
      const lock = await acquireLock({
        storage,
        bucket,
        name: 'locks/held',
        ttlMs: 6000,
        refreshIntervalMs: 500,
        audit: false,
      });
      assert.equal((await gcloud('storage', 'rm', gs('locks/held'))).code, 0);
      await abortedWithin(lock, 3000);
      assert.equal((lock.signal.reason as LockLostError).reason, 'released-by-operator');
    },
  ],
  [
    'rm --if-generation-match=<old generation> after a takeover deletes nothing',
    async () => {
      const base = { storage, bucket, name: 'locks/taken', audit: false as const };
      const crashed = await acquireLock({ ...base, ttlMs: 1000 });
      (crashed as unknown as { state: string }).state = 'frozen'; // crashes: no refresh, no release
      const successor = await acquireLock({ ...base, identity: 'successor', ttlMs: 60_000 });
      assert.match(
        (await gcloud('storage', 'rm', `--if-generation-match=${crashed.generation}`, gs('locks/taken'))).err,
        /412/,
      );
      assert.equal((await getLock(base))?.generation, successor.generation);
      await successor.release();
    },
  ],
  [
    'a metadata hand edit: the holder notices at its next refresh and stops',
    async () => {
      const lock = await acquireLock({
        storage,
        bucket,
        name: 'locks/edited',
        ttlMs: 6000,
        refreshIntervalMs: 500,
        audit: false,
      });
      assert.equal(
        (await gcloud('storage', 'objects', 'update', gs('locks/edited'), '--custom-metadata=purpose=by-hand')).code,
        0,
      );
      await abortedWithin(lock, 3000);
      assert.equal((lock.signal.reason as LockLostError).reason, 'taken');
    },
  ],
];

describe('gcloud storage against the emulator', () => {
  for (const [name, check] of checks) it(name, check, 180_000);
});
