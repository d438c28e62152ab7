'use client';
// A lock row's two ways on: its name, a link to the lock's page, and Release… for a releaser or operator.
import Link from 'next/link';
import type { LockInfo } from '@/lib/lock/types';
import { lockHref } from '@/lib/console/queries';
import { releaseTone, TONE_CLASSES } from '@/lib/console/release-tone';

export function NameLink({ lock }: { lock: LockInfo }) {
  return (
    <Link
      prefetch={false}
      href={lockHref(lock.name, lock.bucket)}
      className="text-blue-700 hover:underline dark:text-blue-300"
    >
      {lock.name}
    </Link>
  );
}

/**
 * Release… on a row: red only for a lock the caller may release whose holder is done (expired, overdue, gone,
 * stalled); quiet on a healthy or live holder's row, and on one the caller may not release (its dialog says why).
 */
export function ReleaseButton({ lock, onRelease }: { lock: LockInfo; onRelease: (lock: LockInfo) => void }) {
  const tone = releaseTone(lock);
  return (
    <button
      type="button"
      onClick={() => onRelease(lock)}
      className={`rounded px-2 py-1 text-xs ${TONE_CLASSES[tone]}`}
      data-tone={tone}
      aria-label={`Force-release ${lock.name}`}
    >
      Release…
    </button>
  );
}
