// `lockboard run --timeout`'s deadline, kept outside the acquisition (#51): a store's read that never returns (a
// hung network file system, a server that accepts and never answers) must not hold `run` past its timeout, nor keep
// it from answering SIGINT/SIGTERM. The acquisition races a timer of its own; when the timer wins, the acquisition is
// aborted, a lock it still returns later is released, and the process exits even if the read never settles.
import { LockAbortError, LockTimeoutError } from '../lock';
import type { HeldLock } from '../lock/stores';
import { setLongTimeout } from '../lock/time';

/** How long past its timeout (or a signal) the acquisition may take to give up by itself before the deadline acts. */
const DEADLINE_GRACE_MS = 2_000;

/** The acquisition, or a LockTimeoutError / LockAbortError when it overran `timeoutMs` or a signal by the grace. */
export function raceDeadline(
  acquisition: Promise<HeldLock>,
  name: string,
  timeoutMs: number | undefined,
  waiting: AbortController,
): Promise<HeldLock> {
  let fired = false;
  // a --timeout may be longer than a Node.js timer holds (30d): chained below the overflow, never fired at once
  let cancel: (() => void) | undefined;
  let onAbort: (() => void) | undefined;
  const late = new Promise<never>((_, reject) => {
    const give = (err: Error) => {
      fired = true;
      reject(err); // before the abort, so the race answers with the deadline's own error
      waiting.abort();
    };
    if (timeoutMs !== undefined)
      cancel = setLongTimeout(() => give(new LockTimeoutError(name, null, timeoutMs)), timeoutMs + DEADLINE_GRACE_MS);
    onAbort = () => {
      cancel?.();
      cancel = setLongTimeout(() => give(new LockAbortError(name)), DEADLINE_GRACE_MS);
    };
    waiting.signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([acquisition, late]).finally(() => {
    cancel?.();
    if (onAbort) waiting.signal.removeEventListener('abort', onAbort);
    if (!fired) return;
    // a lock the overrun acquisition still returns is released, not left to its TTL
    acquisition
      .then((lock) => lock.releaseWith({ outcome: 'error', error: 'acquired after run gave up waiting' }))
      .catch(() => undefined); // it becomes stale after its TTL
    // whatever read is still pending, the process ends (with the exit code the command returned by then)
    setTimeout(() => process.exit(process.exitCode ?? 1), DEADLINE_GRACE_MS).unref();
  });
}
