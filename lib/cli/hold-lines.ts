// How `ls` and `why` tell a hold apart from a contender's lock: who, why, until when and how long is left, or that
// its time has passed and whether anything ended it (a format that never expires needs unhold or a running console).
import { holdOf } from '../lock/hold-marker';
import type { LockInfo } from '../lock/types';
import { formatDuration, formatTime } from '../text/format';

/** One sentence about a lock that is a hold, on the store's clock `nowMs`; undefined for any other lock. */
export function holdLine(lock: Pick<LockInfo, 'identity' | 'purpose' | 'details' | 'expiresAt'>, nowMs: number) {
  const hold = holdOf(lock);
  if (!hold) return undefined;
  const left = Date.parse(hold.until) - nowMs;
  const head = `Held on purpose by ${hold.operator}${hold.reason ? ` · ${hold.reason}` : ''} · until ${formatTime(hold.until)}`;
  if (left > 0) return `${head} (${formatDuration(left)} left)`;
  const after = lock.expiresAt
    ? 'the store lets contenders take it'
    : 'nothing has ended it (no console was running then): "lockboard unhold" ends it';
  return `${head}: passed ${formatDuration(-left)} ago; ${after}.`;
}

/** The hold lines of a listing, each after its lock's name. */
export function holdLines(locks: readonly (LockInfo & { name: string })[], nowMs: number): string[] {
  return locks.flatMap((l) => {
    const line = holdLine(l, nowMs);
    return line ? [`HOLD ${l.name}: ${line}`] : [];
  });
}
