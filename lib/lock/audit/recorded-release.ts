// The audited force-release every store goes through: the attempt recorded before the mutation, the outcome after.
import { AuditWriteError } from '../errors';
import type { LockView, StoreReleaseOutcome, StoreReleaseResult } from '../store';

/**
 * A force-release in every store's trail: the attempt recorded first (nothing is mutated when it cannot be: an
 * AuditWriteError), then the store's one conditional mutation, then the outcome (best effort).
 */
export async function recordedRelease(
  o: {
    lock: string;
    /** Where the trail is, for the error message. */
    trail: string;
    /** The trail and its fix in the store's words, e.g. `in the DynamoDB table "lockboard-audit"`. */
    words?: { where: string; fix: string };
    fields: Record<string, string>;
    record: (fields: Record<string, string>) => Promise<string>;
  },
  mutate: () => Promise<{ outcome: StoreReleaseOutcome; current: LockView | null }>,
): Promise<StoreReleaseResult> {
  let attempt: string;
  try {
    attempt = await o.record({ event: 'force-release-requested', lock: o.lock, ...o.fields });
  } catch (err) {
    throw new AuditWriteError(o.lock, o.trail, err, o.words);
  }
  const { outcome, current } = await mutate();
  let auditError: string | undefined;
  const done = await o
    .record({
      event: outcome === 'released' ? 'force-released' : 'force-release-refused',
      lock: o.lock,
      ...o.fields,
      outcome,
    })
    .catch((err: unknown) => {
      auditError = (err as Error).message;
      return '';
    });
  return {
    outcome,
    current,
    audit: done ? [attempt, done] : [attempt],
    recorded: { attempt, ...(done ? { outcome: done } : {}) },
    ...(auditError ? { auditError } : {}),
  };
}
