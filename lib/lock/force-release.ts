// forceReleaseLock: re-reads the object, refuses anything that is not a recognised lock, then deletes exactly the
// generation (and metageneration) the operator saw. It can never delete a successor's lock (another generation)
// nor a data object. certmagic locks have their temporary hold cleared first, by a PATCH with the same conditions.
import type { Storage } from '@google-cloud/storage';
import { AuditWriter } from './audit';
import { Backoff, sleep } from './backoff';
import { LockOptionsError } from './errors';
import { BucketObjects, isTransient, statusOf } from './gcs';
import { inspectLock } from './inspect';
import { bodyFor } from './list';
import { DEFAULT_AUDIT_PREFIX, validateLockName } from './options';
import type { LockInfo } from './types';

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
  const result = await releaseSeen(objects, name, generation, metageneration);
  if (options.audit !== false && options.audit) {
    const writer = new AuditWriter(objects, options.audit.prefix ?? DEFAULT_AUDIT_PREFIX);
    writer.record({
      event: result.outcome === 'released' ? 'force-released' : 'force-release-refused',
      lock: name,
      identity: result.current?.identity,
      generation,
      outcome: result.outcome,
      operator: options.audit.operator,
      reason: options.audit.reason,
    });
    await writer.flush(2_000);
  }
  return result;
}

async function releaseSeen(
  objects: BucketObjects,
  name: string,
  generation: string,
  metageneration: string | undefined,
): Promise<ForceReleaseResult> {
  const current = await readCurrent(objects, name);
  if (!current) return { outcome: 'gone' };
  if (!current.releasable) return { outcome: 'not-a-lock', current };
  const judged = compare(current, generation, metageneration);
  if (judged) return judged;
  let pinned = metageneration ?? current.metageneration;
  if (current.releaseRule === 'clear-hold-then-delete' && current.temporaryHold) {
    const cleared = await retrying(objects, name, generation, () =>
      objects.patchFields(
        name,
        { temporaryHold: false },
        { ifGenerationMatch: generation, ifMetagenerationMatch: pinned },
      ),
    );
    if ('outcome' in cleared) return cleared;
    pinned = String(cleared.metageneration);
  }
  const refused = await retrying(objects, name, generation, () =>
    objects.delete(name, { ifGenerationMatch: generation, ifMetagenerationMatch: pinned }),
  );
  return refused ?? { outcome: 'released' };
}

/** Runs one conditional write with retries; a 404/412 becomes the outcome the operator is shown. */
async function retrying<T>(
  objects: BucketObjects,
  name: string,
  generation: string,
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
        if (!now) return { outcome: unknown && status === 404 ? 'released' : 'gone' };
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
