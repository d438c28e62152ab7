import type { LockHealth } from '@/lib/lock/types';
import { HEALTH_LABEL, HEALTH_MEANING } from '@/lib/console/health';

const STYLE: Record<LockHealth, string> = {
  healthy: 'bg-emerald-100 text-emerald-900 ring-emerald-600/30 dark:bg-emerald-900/40 dark:text-emerald-200',
  overdue: 'bg-amber-100 text-amber-900 ring-amber-600/30 dark:bg-amber-900/40 dark:text-amber-200',
  expired: 'bg-red-100 text-red-900 ring-red-600/30 dark:bg-red-900/40 dark:text-red-200',
  'long-held': 'bg-violet-100 text-violet-900 ring-violet-600/30 dark:bg-violet-900/40 dark:text-violet-200',
  unknown: 'bg-zinc-100 text-zinc-800 ring-zinc-500/30 dark:bg-zinc-800 dark:text-zinc-200',
  free: 'bg-sky-50 text-sky-900 ring-sky-600/30 dark:bg-sky-900/40 dark:text-sky-200',
};
const DOT: Record<LockHealth, string> = {
  healthy: '●',
  overdue: '◐',
  expired: '✕',
  'long-held': '◷',
  unknown: '?',
  free: '○',
};

/** `meaning`: the lock's own words for its health (its store's truth table); the neutral words otherwise. */
export function HealthBadge({ health, meaning }: { health: LockHealth; meaning?: string }) {
  return (
    <span
      title={meaning ?? HEALTH_MEANING[health]}
      data-health={health}
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STYLE[health]}`}
    >
      <span aria-hidden="true">{DOT[health]}</span>
      {HEALTH_LABEL[health]}
    </span>
  );
}
