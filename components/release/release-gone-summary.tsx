'use client';
// "Release all gone" under way (a progress bar the screen reader hears) and once ended (released N, skipped M, and
// each skipped lock with why).
import type { Ref } from 'react';
import { formatCount as n } from '@/lib/text/format';
import { SafeText } from '../ui/safe-text';
import { SKIPPED_SHOWN, type GoneProgress } from './use-release-gone';

export function GoneProgressView({ progress, total }: { progress: GoneProgress; total: number }) {
  const done = progress.released + progress.skipped;
  return (
    <div className="space-y-1">
      <progress
        className="w-full"
        value={done}
        max={Math.max(total, done, 1)}
        aria-label="Locks judged gone, handled so far"
      />
      <p role="status" aria-live="polite" className="text-sm" data-testid="gone-progress">
        {n(done)} of about {n(Math.max(total, done))}: released {n(progress.released)}, skipped {n(progress.skipped)}…
      </p>
    </div>
  );
}

export function GoneSummary({ progress, headingRef }: { progress: GoneProgress; headingRef: Ref<HTMLHeadingElement> }) {
  return (
    <div className="space-y-2">
      <h3 ref={headingRef} tabIndex={-1} className="font-medium" data-testid="gone-summary">
        Released {n(progress.released)}, skipped {n(progress.skipped)}
        {progress.stopped ? ' (stopped before the end)' : ''}
      </h3>
      {progress.skips.length > 0 && (
        <ul className="max-h-[50vh] space-y-1 overflow-auto text-sm" data-testid="gone-skipped">
          {progress.skips.map((s) => (
            <li key={`${s.bucket ?? ''}/${s.name}`} data-lock={s.name} className="break-words">
              <span className="font-mono">
                <SafeText text={s.name} />
              </span>{' '}
              <strong>skipped</strong>
              <span className="text-zinc-600 dark:text-zinc-400"> — {s.why}</span>
            </li>
          ))}
        </ul>
      )}
      {progress.skipped > progress.skips.length && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          The first {SKIPPED_SHOWN} skipped locks are listed; every release attempt is in the audit trail.
        </p>
      )}
    </div>
  );
}
