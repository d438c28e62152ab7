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

export function errorMessage(err: unknown): string {
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
