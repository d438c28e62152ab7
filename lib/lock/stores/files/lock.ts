// acquireFileLock / withFileLock: Lockboard's lock in a directory on the gendir protocol, refreshed by the path's
// mtime every ttl/4; a refresh that finds the generation gone (taken over, or removed by an operator) aborts `signal`.
import fs from 'node:fs';
import { LockOptionsError } from '../../errors';
import { runHolding, releasedEvent } from '../../holding/hold';
import { defaultIdentity, validateLockName } from '../../holding/options';
import { RefreshingLock, type RefreshResult } from '../../holding/refreshing-lock';
import { MAX_TIMER_MS } from '../../time';
import type { LockInfo } from '../../types';
import { waitForLock } from '../../holding/wait';
import { recordEvent } from './audit';
import { newGeneration, refreshGeneration, releaseGeneration, tryAcquireGeneration } from './gendir';

export interface FileAcquireOptions {
  /** The directory the lock lives in (created `<name>.lockd/` inside it). */
  dir: string;
  name: string;
  identity?: string;
  purpose?: string;
  ttlMs?: number;
  /** undefined = wait without limit; 0 = try once. */
  timeoutMs?: number;
  signal?: AbortSignal;
  onWait?: (holder: LockInfo) => void;
  /** The audit trail's directory (default `<dir>/.lockboard`), or false. */
  audit?: { dir?: string } | false;
  /** Reads the holder while waiting (the store's inspect). */
  holder?: () => Promise<LockInfo | null>;
}

export class FileDirLock extends RefreshingLock {
  constructor(
    name: string,
    readonly file: string,
    readonly fencingToken: string,
    ttlMs: number,
  ) {
    super(name, ttlMs, Math.max(1, Math.floor(ttlMs / 4)), Math.floor(ttlMs / 10));
  }

  protected refreshOnce(): Promise<RefreshResult> {
    try {
      if (refreshGeneration(this.file)) return Promise.resolve('ok');
      return Promise.resolve({ lost: 'taken', detail: `${this.file} was removed (taken over or released by someone)` });
    } catch {
      return Promise.resolve('retry');
    }
  }

  async release(): Promise<'released' | 'already-lost'> {
    if (!(await this.stopForRelease())) return 'already-lost';
    return releaseGeneration(this.file) ? 'released' : 'already-lost';
  }
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
    () => {
      const g = newGeneration({ dir: o.dir, job: o.name, owner, purpose: o.purpose, ttlMs });
      const file = tryAcquireGeneration(o.dir, g);
      if (!file) return Promise.resolve(null);
      if (trail)
        recordEvent(trail, { event: 'acquired', lock: `${o.name}.lockd`, identity: owner, generation: g.token });
      return Promise.resolve(new FileDirLock(o.name, file, g.token, ttlMs));
    },
    async () => (o.holder ? o.holder() : null),
  );
}

/** Runs `fn` holding the lock, releases it after, and records the outcome in the directory's trail. */
export async function withFileLock<T>(o: FileAcquireOptions, fn: (lock: FileDirLock) => Promise<T>): Promise<T> {
  const lock = await acquireFileLock(o);
  return runHolding(lock, fn, async (outcome) => {
    const released = await lock.release();
    const trail = auditDir(o);
    if (trail)
      recordEvent(trail, releasedEvent(`${o.name}.lockd`, lock.fencingToken, outcome, released === 'released'));
  });
}
