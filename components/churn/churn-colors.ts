// One colour per charted event kind, distinct from each other (typed exhaustively: a new kind cannot be drawn in
// the chart's default black). A force-release's recorded attempt is not charted: its outcome is. Each is at least
// 4.5:1 against the light page (text) and 3:1 against the dark one (bars and legend swatches; the legend's words are
// drawn in the page's text colour).
import type { AuditEventKind } from '@/lib/lock/audit/record';

export type ChartedKind = Exclude<AuditEventKind, 'force-release-requested'>;

export const CHURN_COLORS: Record<ChartedKind, string> = {
  acquired: '#2563eb',
  'took-over': '#b45309',
  released: '#047857',
  lost: '#dc2626',
  'force-released': '#7c3aed',
  'force-release-refused': '#71717a',
  'force-release-failed': '#c2410c',
  'observed-created': '#0e7490',
  'observed-deleted': '#4d7c0f',
  'deleted-outside': '#db2777',
  'hold-placed': '#9333ea',
  'hold-ended': '#a16207',
  'hold-expired': '#c026d3',
};
