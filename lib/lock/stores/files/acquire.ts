// acquireFileLock / withFileLock: Lockboard's lock in a directory (lock.ts) taken on the gendir protocol: a new
// generation directory per attempt, waiting with backoff while a live generation holds it, until timeoutMs.
import fs from 'node:fs';
import { LockOptionsError } from '../../errors';
import { holdAndRelease } from '../../holding/hold';
import { defaultIdentity, validateLockName, type LockRequest } from '../../holding/options';
import { waitForLock } from '../../holding/wait';
import { MAX_TIMER_MS } from '../../time';
import type { LockInfo } from '../../types';
import { recordEvent } from './audit';
import { newGeneration, tryAcquireGeneration } from './gendir';
import { FileDirLock } from './lock';

export interface FileAcquireOptions extends LockRequest {
  /** The directory the lock lives in (created `<name>.lockd/` inside it). */
  dir: string;
  ttlMs?: number;
  /** The audit trail's directory (default `<dir>/.lockboard`), or false. */
  audit?: { dir?: string } | false;
  /** Reads the holder while waiting (the store's inspect). */
  holder?: () => Promise<LockInfo | null>;
}

const auditDir = (o: FileAcquireOptions) => (o.audit === false ? null : (o.audit?.dir ?? `${o.dir}/.lockboard`));

export async function acquireFileLock(o: FileAcquireOptions): Promise<FileDirLock> {
  if (!o || typeof o.dir !== 'string') throw new LockOptionsError('Expected `dir`: the directory to lock in');
  validateLockName(o.name);
  if (o.name.includes('/') || o.name.startsWith('.'))
    throw new LockOptionsError(
      `A lock name in a directory has no "/" and no leading dot; got ${JSON.stringify(o.name)}`,
    );
  const ttlMs = o.ttlMs ?? 30_000;
  if (!Number.isInteger(ttlMs) || ttlMs < 100 || ttlMs > MAX_TIMER_MS)
    throw new LockOptionsError(`Expected \`ttlMs\` to be an integer from 100 to ${MAX_TIMER_MS}, got ${ttlMs}`);
  if (!fs.statSync(o.dir, { throwIfNoEntry: false })?.isDirectory())
    throw new LockOptionsError(`${o.dir} is not a directory: create it first (mkdir -p ${o.dir})`);
  const owner = o.identity ?? defaultIdentity();
  const trail = auditDir(o);
  return waitForLock(
    o,
    async () => {
      const g = newGeneration({ dir: o.dir, job: o.name, owner, purpose: o.purpose, ttlMs });
      const file = await tryAcquireGeneration(o.dir, g);
      if (!file) return null;
      if (trail)
        recordEvent(trail, { event: 'acquired', lock: `${o.name}.lockd`, identity: owner, generation: g.token });
      return new FileDirLock(o.name, file, g.token, ttlMs);
    },
    async () => (o.holder ? o.holder() : null),
  );
}

/** Runs `fn` holding the lock, releases it after, and records the outcome in the directory's trail. */
export async function withFileLock<T>(o: FileAcquireOptions, fn: (lock: FileDirLock) => Promise<T>): Promise<T> {
  const lock = await acquireFileLock(o);
  const trail = auditDir(o);
  return holdAndRelease(lock, fn, trail ? { lock: `${o.name}.lockd`, record: (e) => recordEvent(trail, e) } : null);
}
