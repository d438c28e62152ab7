'use client';
// One lock of the locks table: a row of the wide grid, or a card on a narrower screen (lock-table.tsx places them).
import type { ReactNode } from 'react';
import type { LockInfo } from '@/lib/lock/types';
import { formatDuration, heldOrSeen, recordsAcquireTime, versionText } from '@/lib/text/format';
import { Countdown } from '../ui/countdown';
import { HealthBadge } from '../ui/health-badge';
import { VerdictBadge } from '../ui/verdict-badge';
import { verdictOf } from '@/lib/lock/verdict/verdict';
import { sentenceAt } from '@/lib/lock/verdict/figures';
import { gridOf } from './lock-table-header';
import { HoldOwner } from './hold-owner';

/** The format with its store (the table mixes stores under "All sources"). */
const formatOf = (lock: LockInfo): string =>
  lock.pending ? 'reading…' : lock.store ? `${lock.store} · ${lock.format}` : lock.format;

interface Props {
  lock: LockInfo & { waiters?: unknown[] };
  withSource: boolean;
  serverNow: number;
  /** The row's attributes from the virtual list (role, index, measuring ref). */
  row: Record<string, unknown>;
  action: ReactNode;
  name: ReactNode;
}

/** Contenders queued behind the holder (etcd, ZooKeeper): counted on the row, listed on the lock's page. */
function Waiting({ lock }: { lock: Props['lock'] }) {
  const n = lock.waiters?.length ?? 0;
  if (!n) return null;
  return (
    <span
      className="ml-1 rounded bg-zinc-100 px-1 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"
      data-testid="waiting"
    >
      +{n} waiting
    </span>
  );
}

const Source = ({ lock, className }: { lock: LockInfo; className: string }) => (
  <span className={className} data-testid="source" title={lock.source}>
    {lock.source ?? lock.bucket}
  </span>
);

export function LockCard({ lock, withSource, serverNow, row, action, name }: Props) {
  return (
    <div
      {...row}
      className="grid grid-cols-[1fr_auto] content-center gap-x-2 gap-y-1 border-b border-zinc-100 px-3 py-2 text-sm dark:border-zinc-800"
    >
      <div role="cell" className="min-w-0 break-all font-mono">
        {name}
      </div>
      <div role="cell" className="justify-self-end">
        <HealthBadge health={lock.health} />{' '}
        <VerdictBadge verdict={verdictOf(lock)} sentence={sentenceAt(lock, serverNow)} />
      </div>
      <div role="cell" className="min-w-0 break-words" title={lock.identity}>
        <HoldOwner lock={lock} serverNow={serverNow} />
        <Waiting lock={lock} />
      </div>
      <div role="cell" className="justify-self-end text-xs">
        <Countdown expiresAt={lock.expiresAt} serverNow={serverNow} />
      </div>
      <div role="cell" className="min-w-0 text-xs text-zinc-500">
        {heldOrSeen(lock, serverNow - Date.parse(lock.createdAt))} ·{' '}
        <span data-testid="generation">{versionText(lock)}</span> · {formatOf(lock)}
        {withSource && <Source lock={lock} className="block truncate font-mono" />}
      </div>
      <div role="cell" className="justify-self-end">
        {action}
      </div>
    </div>
  );
}

export function LockRow({ lock, withSource, serverNow, row, action, name }: Props) {
  return (
    <div
      {...row}
      className={`${gridOf(withSource)} items-center border-b border-zinc-100 text-sm dark:border-zinc-800`}
    >
      <div role="cell" className="truncate font-mono">
        {name}
      </div>
      {withSource && (
        <div role="cell" className="truncate">
          <Source lock={lock} className="font-mono text-xs" />
        </div>
      )}
      <div role="cell" className="min-w-0">
        <div className="truncate" title={lock.identity}>
          <HoldOwner lock={lock} serverNow={serverNow} />
          <Waiting lock={lock} />
        </div>
        <div className="truncate text-xs text-zinc-500">{[lock.host, lock.purpose].filter(Boolean).join(' · ')}</div>
      </div>
      <div role="cell">
        <HealthBadge health={lock.health} />{' '}
        <VerdictBadge verdict={verdictOf(lock)} sentence={sentenceAt(lock, serverNow)} />
      </div>
      <div role="cell" className="tabular" data-testid="held-for">
        {recordsAcquireTime(lock)
          ? formatDuration(serverNow - Date.parse(lock.createdAt))
          : heldOrSeen(lock, serverNow - Date.parse(lock.createdAt))}
      </div>
      <div role="cell" className="tabular">
        {formatDuration(serverNow - Date.parse(lock.updatedAt))} ago
      </div>
      <div role="cell">
        <Countdown expiresAt={lock.expiresAt} serverNow={serverNow} />
      </div>
      <div role="cell" className="truncate font-mono text-xs" data-testid="generation">
        {versionText(lock)}
      </div>
      <div role="cell" className="text-xs">
        {formatOf(lock)}
      </div>
      <div role="cell" className="text-right">
        {action}
      </div>
    </div>
  );
}
