'use client';
// The locks page's health chips: one per health with its count over the whole source (the server's counts, not the
// rows loaded), pressed to filter by it.
import { formatCount as n } from '@/lib/text/format';
import { HEALTHS } from '@/lib/console/health';
import type { LockHealth } from '@/lib/lock/types';
import { HealthBadge } from '../ui/health-badge';
import { chip } from './locks-filter';

export function HealthChips(p: {
  health: LockHealth | null;
  total: number;
  counts: Record<LockHealth, number> | undefined;
  onPick: (health: LockHealth | null) => void;
}) {
  return (
    <div
      role="group"
      aria-label="Filter by health"
      title="Counts of every lock in the source"
      className="flex flex-wrap gap-2"
    >
      <button
        type="button"
        aria-pressed={p.health === null}
        onClick={() => p.onPick(null)}
        className={chip(p.health === null)}
      >
        All <span className="tabular">{n(p.total)}</span>
      </button>
      {HEALTHS.map((h) => (
        <button
          key={h}
          type="button"
          aria-pressed={p.health === h}
          onClick={() => p.onPick(p.health === h ? null : h)}
          className={chip(p.health === h)}
          data-testid={`count-${h}`}
        >
          <HealthBadge health={h} /> <span className="tabular">{n(p.counts?.[h] ?? 0)}</span>
        </button>
      ))}
    </div>
  );
}
