import { acquireLock } from './acquire';
import type { Lock } from './lock';
import type { AcquireOptions } from './types';

/** Runs `fn` while holding the lock; releases in `finally` and records ok/error in the audit trail. */
export async function withLock<T>(options: AcquireOptions, fn: (lock: Lock) => Promise<T>): Promise<T> {
  const lock = await acquireLock(options);
  let failure: unknown;
  try {
    return await fn(lock);
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    const details =
      failure === undefined ? { outcome: 'ok' as const } : { outcome: 'error' as const, error: errorMessage(failure) };
    try {
      await lock.releaseWith(details);
    } catch (releaseError) {
      // The lock becomes stale by itself; never hide the routine's own error behind a release failure.
      if (failure === undefined) throw releaseError;
    }
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
