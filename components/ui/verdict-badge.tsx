// The holder's verdict (gone, stalled, alive, unknown) as a small badge, its sentence on hover (lib/lock/verdict).
// A row's sentence ticks: its moving figures ("expires in 12 s") are rendered from the row's times on the page.
import type { LockVerdict, Verdict } from '@/lib/lock/verdict/verdict';

/** Each verdict's colours (the row's badge, the list's chips). */
export const VERDICT_STYLE: Record<Verdict, string> = {
  gone: 'bg-red-100 text-red-900 ring-red-600/30 dark:bg-red-900/40 dark:text-red-200',
  stalled: 'bg-amber-100 text-amber-900 ring-amber-600/30 dark:bg-amber-900/40 dark:text-amber-200',
  alive: 'bg-emerald-100 text-emerald-900 ring-emerald-600/30 dark:bg-emerald-900/40 dark:text-emerald-200',
  unknown: 'bg-zinc-100 text-zinc-800 ring-zinc-500/30 dark:bg-zinc-800 dark:text-zinc-200',
};

/** `sentence`: the verdict's words of the moment where the row renders them from its times (figures.ts `sentenceAt`). */
export function VerdictBadge({ verdict, sentence }: { verdict: LockVerdict | undefined; sentence?: string }) {
  if (!verdict) return null;
  return (
    <span
      title={sentence ?? verdict.sentence}
      data-verdict={verdict.verdict}
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${VERDICT_STYLE[verdict.verdict]}`}
    >
      holder {verdict.verdict}
    </span>
  );
}

/** The lock page's verdict: the sentence, then each piece of evidence with where and when it was read. */
export function VerdictPanel({ verdict }: { verdict: LockVerdict | undefined }) {
  if (!verdict) return null;
  return (
    <div className="text-sm" data-testid="lock-verdict">
      <p>
        <VerdictBadge verdict={verdict} /> {verdict.sentence}
      </p>
      {verdict.evidence.length > 0 && (
        <ul className="mt-1 list-disc pl-5 text-xs text-zinc-600 dark:text-zinc-400">
          {verdict.evidence.map((e, i) => (
            <li key={i}>
              {e.fact} — <span className="font-mono">{e.from}</span> ({e.at})
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
