// One colour per charted event kind, distinct from each other (typed exhaustively: a new kind cannot be drawn in
// the chart's default black). A force-release's recorded attempt is not charted: its outcome is.
import type { AuditEventKind } from '@/lib/lock/audit-record';

export type ChartedKind = Exclude<AuditEventKind, 'force-release-requested'>;

export const CHURN_COLORS: Record<ChartedKind, string> = {
  acquired: '#2563eb',
  'took-over': '#d97706',
  released: '#059669',
  lost: '#dc2626',
  'force-released': '#7c3aed',
  'force-release-refused': '#a1a1aa',
  'observed-created': '#0891b2',
  'observed-deleted': '#65a30d',
  'deleted-outside': '#db2777',
};
