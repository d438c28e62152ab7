'use client';
// The lock a release dialog is about, in its store's words: holder, format, health, version, the store's rule and
// what clearing does to the holder, and whether it is safe to clear.
import { formatDuration, versionText } from '@/lib/format';
import { HEALTH_MEANING, RELEASE_ADVICE } from '@/lib/health';
import type { LockInfo } from '@/lib/lock/types';
import { HealthBadge } from './health-badge';
import { SafeText } from './safe-text';

export function ReleaseSummary({ target, serverNow }: { target: LockInfo; serverNow: number }) {
  return (
    <>
      <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-zinc-500">Holder</dt>
        <dd data-testid="dialog-holder">
          {target.identity !== undefined ? <SafeText text={target.identity} /> : 'unknown'}
        </dd>
        {target.purpose && (
          <>
            <dt className="text-zinc-500">Purpose</dt>
            <dd>
              <SafeText text={target.purpose} />
            </dd>
          </>
        )}
        <dt className="text-zinc-500">Format</dt>
        <dd data-testid="dialog-format">{target.formatLabel}</dd>
        {target.details.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-zinc-500">{label}</dt>
            <dd className="break-all">{value}</dd>
          </div>
        ))}
        <dt className="text-zinc-500">Health</dt>
        <dd>
          <HealthBadge health={target.health} />{' '}
          <span className="text-xs text-zinc-500">{HEALTH_MEANING[target.health]}</span>
        </dd>
        <dt className="text-zinc-500">Held for</dt>
        <dd className="tabular">{formatDuration(serverNow - Date.parse(target.createdAt))}</dd>
        <dt className="text-zinc-500">Version</dt>
        <dd className="font-mono text-xs" data-testid="dialog-version">
          {versionText(target)}
        </dd>
      </dl>
      {target.terms && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="dialog-store-rule">
          {target.terms.rule} {target.terms.effect}
        </p>
      )}
      <p
        role="note"
        className={`rounded-md p-3 text-sm ${target.health === 'expired' ? 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200' : 'bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200'}`}
      >
        <strong>Safe to clear? </strong>
        {RELEASE_ADVICE[target.health].replace(/^Safe to clear: /, '')} Only this version is cleared: if someone else
        takes the lock meanwhile, nothing of theirs is touched.
      </p>
      <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="dialog-release-note">
        {target.releaseNote}
      </p>
    </>
  );
}
