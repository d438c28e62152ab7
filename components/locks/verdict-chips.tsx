'use client';
// The locks page's verdict chips: one per verdict on the holder (gone, stalled, alive, unknown) with its count over
// the whole selection (the server's counts, kept live by the stream), pressed to filter by it through the server.
import { formatCount as n } from '@/lib/text/format';
import { VERDICTS, type Verdict } from '@/lib/lock/verdict/verdict';
import { VERDICT_STYLE } from '../ui/verdict-badge';
import { chip } from './locks-filter';

const MEANING: Record<Verdict, string> = {
  gone: 'Evidence shows the holder no longer exists',
  stalled: 'The holder exists but is not progressing',
  alive: 'Evidence of a live holder',
  unknown: "Nothing beyond the lock's bytes settles it",
};

export function VerdictChips(p: {
  verdict: Verdict | null;
  counts: Record<Verdict, number> | undefined;
  onPick: (verdict: Verdict | null) => void;
}) {
  return (
    <div
      role="group"
      aria-label="Filter by the holder's verdict"
      title="Counts of every judged lock in the source"
      className="flex flex-wrap items-center gap-2"
    >
      <span className="text-sm text-zinc-600 dark:text-zinc-400">Holder</span>
      {VERDICTS.map((v) => (
        <button
          key={v}
          type="button"
          aria-pressed={p.verdict === v}
          onClick={() => p.onPick(p.verdict === v ? null : v)}
          className={chip(p.verdict === v)}
          title={MEANING[v]}
          data-testid={`verdict-${v}`}
        >
          <span className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${VERDICT_STYLE[v]}`}>
            {v}
          </span>{' '}
          <span className="tabular" data-testid={`verdict-count-${v}`}>
            {n(p.counts?.[v] ?? 0)}
          </span>
        </button>
      ))}
    </div>
  );
}
