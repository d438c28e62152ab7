import { acquireLock } from './acquire';
import { errorMessage, runHolding } from '../../holding/hold';
import type { Lock } from './lock';
import type { AcquireOptions } from '../../types';

/** Runs `fn` while holding the lock; releases after it and records ok/error in the audit trail. */
export async function withLock<T>(options: AcquireOptions, fn: (lock: Lock) => Promise<T>): Promise<T> {
  const lock = await acquireLock(options);
  return runHolding(lock, fn, async (o) => {
    await lock.releaseWith(o.failed ? { outcome: 'error', error: errorMessage(o.error) } : { outcome: 'ok' });
  });
}
