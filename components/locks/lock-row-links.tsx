'use client';
// A lock row's two ways on: its name, a link to the lock's page, and Release… for an operator who may.
import Link from 'next/link';
import type { LockInfo } from '@/lib/lock/types';
import { lockHref } from '@/lib/console/queries';

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

export function ReleaseButton({ lock, onRelease }: { lock: LockInfo; onRelease: (lock: LockInfo) => void }) {
  return (
    <button
      type="button"
      onClick={() => onRelease(lock)}
      className="rounded px-2 py-1 text-xs font-medium text-red-700 ring-1 ring-inset ring-red-300 hover:bg-red-50 dark:text-red-300 dark:ring-red-700 dark:hover:bg-red-950"
      aria-label={`Force-release ${lock.name}`}
    >
      Release…
    </button>
  );
}
