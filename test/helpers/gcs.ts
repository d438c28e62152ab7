// Test targets: the emulator through the official client (default), or a real bucket when LOCKBOARD_TEST_BUCKET is set.
import { randomBytes } from 'node:crypto';
import { Storage } from '@google-cloud/storage';
import { afterEach, beforeEach } from 'vitest';
import { startEmulator, type Emulator, type EmulatorOptions } from '@/lib/emulator';

export interface Target {
  storage: Storage;
  bucket: string;
  /** Unique per target, so runs against a shared real bucket never collide. */
  prefix: string;
  emulator?: Emulator;
  close(): Promise<void>;
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<Target> {
  const emulator = await startEmulator({ buckets: ['test-bucket'], ...options });
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'test' });
  return {
    storage,
    bucket: 'test-bucket',
    prefix: `t-${randomBytes(4).toString('hex')}/`,
    emulator,
    close: () => emulator.close(),
  };
}

/** The conformance target: a real bucket (with Application Default Credentials) when configured, else the emulator. */
export async function startConformanceTarget(): Promise<Target> {
  const bucket = process.env.LOCKBOARD_TEST_BUCKET;
  if (!bucket) return startTestEmulator();
  const storage = new Storage();
  return { storage, bucket, prefix: `lockboard-conformance/${randomBytes(4).toString('hex')}/`, close: async () => {} };
}

export function isGcsError(err: unknown, code: number): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

export async function expectGcsError(promise: Promise<unknown>, code: number): Promise<void> {
  try {
    await promise;
  } catch (err) {
    if (isGcsError(err, code)) return;
    throw new Error(
      `expected GCS error ${code}, got ${(err as Error).message} (code ${(err as { code?: unknown }).code})`,
    );
  }
  throw new Error(`expected GCS error ${code}, but the call succeeded`);
}

/** A fresh emulator for every test of the file; `set` receives it (assign it to the file's `t`). */
export function startEmulatorPerTest(set: (target: Target) => void, options: EmulatorOptions = {}): void {
  let current: Target | undefined;
  beforeEach(async () => {
    current = await startTestEmulator(options);
    set(current);
  });
  afterEach(async () => {
    await current?.close();
  });
}
