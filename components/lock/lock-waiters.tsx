// The contenders queued behind a lock's holder, in the order the store grants them (etcd's create revision,
// ZooKeeper's sequence), and why none of them is ever released: shown on the lock page.
import Link from 'next/link';
import { formatDuration } from '@/lib/text/format';
import { lockHref } from '@/lib/console/queries';
import type { LockView } from '@/lib/lock/store';

type Queue = Partial<Pick<LockView, 'waiters' | 'queuedFor' | 'bucket'>>;

export const WAITER_RULE =
  'Waiters are shown, never released: removing a waiter can let it and the next one hold the lock at once. Releasing the holder lets the first waiter in.';

/** `lock`: any lock view; a store that queues contenders sets `waiters` (etcd, ZooKeeper). */
export function LockWaiters({ lock, serverNow }: { lock: object; serverNow: number }) {
  const { waiters, bucket } = lock as Queue;
  if (!waiters) return null;
  return (
    <section aria-labelledby="waiters-heading" className="space-y-2">
      <h2 id="waiters-heading" className="text-sm font-semibold">
        Waiters ({waiters.length})
      </h2>
      {waiters.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Nobody is queued behind the holder.</p>
      ) : (
        <ol className="list-decimal space-y-1 pl-6 text-sm" data-testid="lock-waiters">
          {waiters.map((w) => (
            <li key={w.key ?? w.version}>
              <span className="font-medium">{w.identity}</span>
              {w.key && (
                <Link
                  prefetch={false}
                  href={lockHref(w.key, bucket)}
                  className="ml-2 break-all font-mono text-xs text-blue-700 hover:underline dark:text-blue-300"
                >
                  {w.key}
                </Link>
              )}
              <span className="ml-2 text-xs text-zinc-500">
                version {w.version}
                {w.since ? ` · seen ${formatDuration(serverNow - Date.parse(w.since))} ago` : ''}
              </span>
            </li>
          ))}
        </ol>
      )}
      {waiters.length > 0 && <p className="text-xs text-zinc-600 dark:text-zinc-400">{WAITER_RULE}</p>}
    </section>
  );
}

/** On a waiter's own page, in place of the release button: why it is never released, and what to release instead. */
export function WaiterNotReleased({ lock }: { lock: object }) {
  const { queuedFor } = lock as Queue;
  if (!queuedFor) return null;
  return (
    <p role="note" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
      <strong>A waiter, not the holder. </strong>
      {WAITER_RULE} To let the queue move, release the holder of <span className="font-mono">{queuedFor}</span>.
    </p>
  );
}
