'use client';
// The outcome of a bulk release, one line per lock: released, or kept and why (changed hands, refreshed, gone…).
import type { LockInfo } from '@/lib/lock/types';

export interface BatchResult {
  name: string;
  bucket?: string;
  generation: string;
  outcome: 'released' | 'changed' | 'refreshed' | 'gone' | 'not-a-lock' | 'not-attempted' | 'error';
  message: string;
  confirmed?: boolean;
  current?: LockInfo;
}

const OUTCOME_LABEL: Record<BatchResult['outcome'], string> = {
  released: 'Released',
  changed: 'Changed hands: kept',
  refreshed: 'Holder refreshed: kept',
  gone: 'Already gone',
  'not-a-lock': 'Not a lock: refused',
  'not-attempted': 'Not attempted',
  error: 'Failed',
};

export function BulkResults({
  results,
  headingRef,
}: {
  results: { released: number; refused: number; results: BatchResult[] };
  headingRef: React.Ref<HTMLHeadingElement>;
}) {
  return (
    <div className="space-y-2">
      <h3 ref={headingRef} tabIndex={-1} className="font-medium" data-testid="bulk-summary">
        {results.released} released, {results.refused} not released
      </h3>
      <ul className="max-h-[50vh] space-y-1 overflow-auto text-sm" data-testid="bulk-results">
        {results.results.map((r) => (
          <li key={`${r.bucket ?? ''}/${r.name}`} data-lock={r.name} data-outcome={r.outcome}>
            <span className="font-mono">{r.name}</span>{' '}
            <strong className={r.outcome === 'released' ? 'text-emerald-700 dark:text-emerald-300' : ''}>
              {OUTCOME_LABEL[r.outcome]}
            </strong>
            {r.outcome !== 'released' || r.confirmed === false ? (
              <span className="text-zinc-600 dark:text-zinc-400">
                {' '}
                — {r.message}
                {r.current?.identity && r.outcome === 'changed' ? ` Now held by ${r.current.identity}.` : ''}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
