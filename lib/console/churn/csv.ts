// The audit CSV export: one row per event with the source it belongs to, safe to open in a spreadsheet.
import type { ChurnEvent } from '@/lib/console/churn/summary';

const COLUMNS = [
  'at',
  'source',
  'event',
  'lock',
  'identity',
  'generation',
  'previous_identity',
  'stale_ms',
  'held_ms',
  'outcome',
  'error',
  'operator',
  'reason',
  'delete_confirmed',
  'format',
  'verified',
  'reported_event',
  /** store (empty), signed or reported: who gave `at` (lib/lock/audit/record.ts) */
  'at_from',
  /** verified, other-key (signed with a key this console does not hold), copied or none (a holder's report) */
  'signature',
] as const;

/** A byte-order mark: spreadsheets read the file as UTF-8 (✓, 日本語) instead of their locale's code page. */
export const CSV_BOM = '\uFEFF';

function cell(v: unknown): string {
  const s = v === undefined ? '' : String(v);
  // Spreadsheet formula injection (OWASP): a leading = + - @ TAB or CR is neutralised with an apostrophe.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r\t']/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(events: ChurnEvent[]): string {
  const rows = events.map((e) => COLUMNS.map((c) => cell(e[c])).join(','));
  return CSV_BOM + [COLUMNS.join(','), ...rows].join('\n') + '\n';
}
