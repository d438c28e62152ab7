// What `lockboard release` says of its audit records: exactly which were written (the attempt, the outcome) and which
// were not, and why, never a record named as the other.
import type { StoreReleaseResult } from '../lock/store';

export function auditLine(r: Pick<StoreReleaseResult, 'audit' | 'recorded' | 'auditError' | 'outcome'>): string {
  const { attempt, outcome } = r.recorded ?? { attempt: r.audit[0], outcome: r.audit[1] };
  const why = r.auditError ? `: ${r.auditError}` : '';
  if (attempt && outcome) return `Audit: attempt recorded (${attempt}), outcome recorded (${outcome}).`;
  if (attempt) return `Audit: attempt recorded (${attempt}); the outcome could not be recorded${why}.`;
  if (outcome)
    return `Audit: outcome recorded (${outcome}); no attempt was recorded, since it was refused before any change.`;
  if (r.outcome === 'released') return `Audit: nothing could be recorded${why}.`;
  return 'Audit: nothing recorded: it was refused before any change (nothing was deleted).';
}
