// The audited force-release every store goes through: the attempt recorded before the mutation, the outcome after
// (a mutation that throws too: `force-release-failed`, with the error in the store's words, then the error itself).
import { AuditWriteError } from '../errors';
import type { LockView, StoreReleaseOutcome, StoreReleaseResult } from '../store';

type Mutation = () => Promise<{
  outcome: StoreReleaseOutcome;
  current: LockView | null;
  /** The outcome record's own fields over the attempt's (GCS: the holder now, an unconfirmed delete); undefined: left out. */
  record?: Record<string, string | undefined>;
}>;

/**
 * A force-release in every store's trail: the attempt recorded first (nothing is mutated when it cannot be: an
 * AuditWriteError), then the store's one conditional mutation, then the outcome (best effort). A mutation that throws
 * leaves `force-release-failed` with its error (best effort), and the error goes on to the caller unchanged.
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
  mutate: Mutation,
): Promise<StoreReleaseResult> {
  let attempt: string;
  try {
    attempt = await o.record({ event: 'force-release-requested', lock: o.lock, ...o.fields });
  } catch (err) {
    throw new AuditWriteError(o.lock, o.trail, err, o.words);
  }
  const { outcome, current, record } = await mutateOrRecordFailure(o, mutate);
  let auditError: string | undefined;
  const done = await o
    .record({
      event: outcome === 'released' ? 'force-released' : 'force-release-refused',
      lock: o.lock,
      ...defined({ ...o.fields, ...record }),
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

const defined = (fields: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));

/** The longest error kept in a `force-release-failed` record. */
const ERROR_CHARS = 1000;

/** The store's error as one line: Azure's and others' messages carry request ids and times on further lines. */
function errorWords(err: unknown): string {
  const text = err instanceof Error ? err.message || err.name : String(err);
  return text.replace(/\s+/g, ' ').trim().slice(0, ERROR_CHARS) || 'unknown error';
}

async function mutateOrRecordFailure(
  o: { lock: string; fields: Record<string, string>; record: (fields: Record<string, string>) => Promise<string> },
  mutate: Mutation,
): ReturnType<Mutation> {
  try {
    return await mutate();
  } catch (err) {
    // the outcome of an attempt on record, even when it is a failure; a trail that cannot take it leaves the attempt
    const failed = {
      event: 'force-release-failed',
      lock: o.lock,
      ...o.fields,
      outcome: 'failed',
      error: errorWords(err),
    };
    await o.record(failed).catch(() => undefined);
    throw err;
  }
}
