// Who released a lock, as the churn page and the CSV say it: an operator's name only from a verified record; a record
// signed with a key this console does not hold (a demo restarted with a new key, a rotated LOCKBOARD_AUDIT_KEY) is
// said to be so, never called a holder's report; only an unsigned record is what a holder reported.
import type { AuditRecord } from '@/lib/lock/audit/record';

const WHY: Record<NonNullable<AuditRecord['signature']>, string> = {
  verified: '',
  'other-key': 'signed with another audit key than this console’s, not checked',
  copied: 'a signed record copied from another time, not verified',
  none: 'reported by a holder, not signed',
};

/** The operator of a release record, with why it is not verified where it is not. */
export function operatorText(e: Pick<AuditRecord, 'operator' | 'verified' | 'signature'>): string {
  if (e.verified) return e.operator ?? '';
  return `${e.operator ?? '?'} (${WHY[e.signature ?? 'none'] || WHY.none})`;
}
