// What every store's `with…Lock` shares: run the routine holding the lock, then finish (release, record the outcome)
// whatever it did; a failure to finish never hides the routine's own error (the lock expires or its session ends).

export interface Outcome {
  failed: boolean;
  /** The routine's error, when it failed. */
  error?: unknown;
}

export async function runHolding<L, T>(
  lock: L,
  fn: (lock: L) => Promise<T>,
  finish: (outcome: Outcome) => Promise<void>,
): Promise<T> {
  let outcome: Outcome = { failed: false };
  try {
    return await fn(lock);
  } catch (err) {
    outcome = { failed: true, error: err };
    throw err;
  } finally {
    try {
      await finish(outcome);
    } catch (finishError) {
      if (!outcome.failed) throw finishError;
    }
  }
}

/** A store's own lock as `withLock` finishes it: released, then the outcome recorded with its fencing token. */
interface ReleasableLock {
  fencingToken: string;
  release(): Promise<'released' | 'already-lost'>;
}

/**
 * The `with…Lock` ending every store shares: runs `fn` holding `lock`, then releases it (a failed release is
 * reported unless the routine's own error is) and hands the `released` event to `record` (null: no trail).
 */
export function holdAndRelease<L extends ReleasableLock, T>(
  lock: L,
  fn: (lock: L) => Promise<T>,
  trail: { lock: string; record: (event: Record<string, string>) => unknown } | null,
): Promise<T> {
  return runHolding(lock, fn, async (outcome) => {
    const released = await lock.release().catch((err: unknown) => {
      if (!outcome.failed) throw err;
      return 'already-lost' as const;
    });
    if (!trail) return;
    await trail.record(releasedEvent(trail.lock, lock.fencingToken, outcome, released === 'released'));
  });
}

/** A lock that records its own release (GCS's lock, any store's lock as `lockboard run` holds it). */
interface ReportingLock {
  releaseWith(details: { outcome: 'ok' | 'error'; error?: string }): Promise<unknown>;
}

/** The `with…Lock` ending of a lock that records its own release: ok, or the routine's error. */
export function holdAndReport<L extends ReportingLock, T>(lock: L, fn: (lock: L) => Promise<T>): Promise<T> {
  return runHolding(lock, fn, async (o) => {
    await lock.releaseWith(o.failed ? { outcome: 'error', error: errorMessage(o.error) } : { outcome: 'ok' });
  });
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The `released` audit event of a lock: ok or the error, and whether the release still found the lock ours. */
export function releasedEvent(lock: string, token: string, o: Outcome, stillOurs: boolean): Record<string, string> {
  return {
    event: 'released',
    lock,
    generation: token,
    outcome: o.failed ? 'error' : 'ok',
    ...(o.failed ? { error: errorMessage(o.error) } : {}),
    ...(stillOurs ? {} : { delete_confirmed: 'false' }),
  };
}
