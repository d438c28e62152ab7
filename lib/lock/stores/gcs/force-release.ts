// forceReleaseLock: re-reads the object, refuses anything that is not a recognised lock, records the attempt in the
// audit trail (refusing when it cannot: nothing unaudited is deleted), then deletes exactly the generation (and
// metageneration) the operator saw. It can never delete a successor's lock (another generation) nor a data object.
// certmagic locks have their temporary hold cleared first, by a PATCH with the same conditions.
import type { Storage } from '@google-cloud/storage';
import { AuditWriter } from './audit';
import { Backoff, sleep } from '../../holding/backoff';
import { AuditWriteError, LockOptionsError } from '../../errors';
import { BucketObjects, isTransient, statusOf } from './client';
import { inspectLock } from '../../objects/inspect';
import { bodyFor } from './list';
import { DEFAULT_AUDIT_PREFIX, validateLockName } from '../../holding/options';
import type { LockInfo } from '../../types';

export interface ForceReleaseOptions {
  storage: Storage;
  bucket: string;
  name: string;
  generation: string;
  metageneration?: string;
  /** Who and why, for the audit event; `false` writes none. */
  audit?: { prefix?: string; operator: string; reason: string } | false;
}

/** `not-a-lock`: a data or unrecognised object; nothing was deleted. */
export type ForceReleaseOutcome = 'released' | 'changed' | 'refreshed' | 'gone' | 'not-a-lock';

export interface ForceReleaseResult {
  outcome: ForceReleaseOutcome;
  /** The object as it is now, for `changed`, `refreshed` and `not-a-lock`. */
  current?: LockInfo;
  /**
   * `false` when the DELETE's response was lost and its retry found the object gone: the lock is released, but
   * whether by this request or by someone else at the same moment (the holder's own release) cannot be known.
   */
  confirmed?: boolean;
  /** What the audit trail holds: the attempt (written before any delete) and the outcome, by object name. */
  audit?: { attempt?: string; outcome?: string; outcomeError?: string };
}

const DECIMAL = /^[0-9]{1,20}$/;
const ATTEMPTS = 4;

export async function forceReleaseLock(options: ForceReleaseOptions): Promise<ForceReleaseResult> {
  const { storage, bucket, name, generation, metageneration } = options;
  validateLockName(name);
  for (const [key, value] of [
    ['generation', generation],
    ['metageneration', metageneration],
  ] as const) {
    if (value !== undefined && !DECIMAL.test(value)) {
      throw new LockOptionsError(`Expected \`${key}\` to be a decimal integer string, got ${JSON.stringify(value)}`);
    }
  }
  const objects = new BucketObjects(storage, bucket);
  const audit = options.audit || undefined;
  const prefix = audit?.prefix ?? DEFAULT_AUDIT_PREFIX;
  const writer = audit ? new AuditWriter(objects, prefix) : undefined;
  const who = audit && { operator: audit.operator, reason: audit.reason };
  const trail: NonNullable<ForceReleaseResult['audit']> = {};

  const result = await releaseSeen(objects, name, generation, metageneration, async (current) => {
    if (!writer) return;
    try {
      trail.attempt = await writer.recordNow({
        event: 'force-release-requested',
        lock: name,
        identity: current.identity,
        generation,
        ...who,
      });
    } catch (err) {
      throw new AuditWriteError(name, `gs://${bucket}/${prefix}`, err);
    }
  });
  if (writer) {
    try {
      trail.outcome = await writer.recordNow({
        event: result.outcome === 'released' ? 'force-released' : 'force-release-refused',
        lock: name,
        identity: result.current?.identity,
        generation,
        outcome: result.outcome,
        ...who,
        ...(result.confirmed === false ? { delete_confirmed: 'false' as const } : {}),
      });
    } catch (err) {
      // The attempt is on record; the outcome is in the response (and the lock's state) even if this write failed
      trail.outcomeError = (err as Error).message;
    }
  }
  return writer ? { ...result, audit: trail } : result;
}

/** Re-read, judge, then (after `beforeWrite`, which may refuse by throwing) the conditional writes. */
async function releaseSeen(
  objects: BucketObjects,
  name: string,
  generation: string,
  metageneration: string | undefined,
  beforeWrite: (current: LockInfo) => Promise<void>,
): Promise<ForceReleaseResult> {
  const current = await readCurrent(objects, name);
  if (!current) return { outcome: 'gone' };
  if (!current.releasable) return { outcome: 'not-a-lock', current };
  const judged = compare(current, generation, metageneration);
  if (judged) return judged;
  await beforeWrite(current);
  let pinned = metageneration ?? current.metageneration;
  if (current.releaseRule === 'clear-hold-then-delete' && current.temporaryHold) {
    const cleared = await retrying(objects, name, generation, false, () =>
      objects.patchFields(
        name,
        { temporaryHold: false },
        { ifGenerationMatch: generation, ifMetagenerationMatch: pinned },
      ),
    );
    if ('outcome' in cleared) return cleared;
    pinned = String(cleared.metageneration);
  }
  const refused = await retrying(objects, name, generation, true, () =>
    objects.delete(name, { ifGenerationMatch: generation, ifMetagenerationMatch: pinned }),
  );
  return refused ?? { outcome: 'released', confirmed: true };
}

/** Runs one conditional write with retries; a 404/412 becomes the outcome the operator is shown. */
async function retrying<T>(
  objects: BucketObjects,
  name: string,
  generation: string,
  deletes: boolean,
  write: () => Promise<T>,
): Promise<T | ForceReleaseResult> {
  const backoff = new Backoff();
  let unknown = false;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      const status = statusOf(err);
      if (status === 404 || status === 412) {
        const now = await readCurrent(objects, name);
        // Gone after a DELETE whose response was lost: released, but perhaps by someone else at the same moment
        if (!now) {
          return deletes && unknown && status === 404 ? { outcome: 'released', confirmed: false } : { outcome: 'gone' };
        }
        // Same generation after a 412: the holder refreshed since the operator looked, so it is alive.
        return { outcome: now.generation === generation ? 'refreshed' : 'changed', current: now };
      }
      if (!isTransient(err) || attempt >= ATTEMPTS) throw err;
      if (status !== 429) unknown = true;
      await sleep(backoff.afterWriteFailure(status));
    }
  }
}

function compare(current: LockInfo, generation: string, metageneration: string | undefined): ForceReleaseResult | null {
  if (current.generation !== generation) return { outcome: 'changed', current };
  if (metageneration !== undefined && current.metageneration !== metageneration)
    return { outcome: 'refreshed', current };
  return null;
}

async function readCurrent(objects: BucketObjects, name: string): Promise<LockInfo | null> {
  const object = await objects.get(name);
  if (!object) return null;
  return inspectLock(object, objects.clock.now(), { bucket: objects.bucket, body: await bodyFor(objects, object) });
}
