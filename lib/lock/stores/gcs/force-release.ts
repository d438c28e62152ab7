// forceReleaseLock: re-reads the object, refuses anything that is not a recognised lock, records the attempt in the
// audit trail (refusing when it cannot: nothing unaudited is deleted), then deletes exactly the generation (and
// metageneration) the operator saw, and records the outcome (a failure too), through recordedRelease as every store. It can never delete a successor's lock (another generation) nor a data object.
// certmagic locks have their temporary hold cleared first, by a PATCH with the same conditions.
import type { Storage } from '@google-cloud/storage';
import { AuditWriter } from './audit';
import { Backoff, sleep } from '../../holding/backoff';
import { recordedRelease } from '../../audit/recorded-release';
import { LockOptionsError } from '../../errors';
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
  const current = await readCurrent(objects, name);
  if (!current) return { outcome: 'gone' };
  if (!current.releasable) return { outcome: 'not-a-lock', current };
  const judged = compare(current, generation, metageneration);
  if (judged) return judged;
  const write = () => writeSeen(objects, name, current, generation, metageneration);
  return options.audit ? audited(objects, current, options, options.audit, write) : write();
}

/**
 * The writes through the path every store's release takes (recordedRelease): the attempt recorded first (refused with
 * AuditWriteError when it cannot be: nothing is deleted), the outcome after, a failure too (`force-release-failed`).
 */
async function audited(
  objects: BucketObjects,
  current: LockInfo,
  o: ForceReleaseOptions,
  audit: { prefix?: string; operator: string; reason: string },
  write: () => Promise<ForceReleaseResult>,
): Promise<ForceReleaseResult> {
  const prefix = audit.prefix ?? DEFAULT_AUDIT_PREFIX;
  const writer = new AuditWriter(objects, prefix);
  const seen = { identity: current.identity, generation: o.generation, operator: audit.operator, reason: audit.reason };
  let result: ForceReleaseResult = { outcome: 'gone' };
  const done = await recordedRelease(
    {
      lock: o.name,
      trail: `gs://${o.bucket}/${prefix}`,
      fields: Object.fromEntries(Object.entries(seen).filter((e): e is [string, string] => e[1] !== undefined)),
      record: (f) => writer.recordNow(f as never),
    },
    async () => {
      result = await write();
      // the outcome names the holder now (none once released), and a delete whose response was lost
      const record = {
        identity: result.current?.identity,
        ...(result.confirmed === false ? { delete_confirmed: 'false' } : {}),
      };
      return { outcome: result.outcome, current: null, record };
    },
  );
  const trail = { attempt: done.recorded?.attempt, outcome: done.recorded?.outcome, outcomeError: done.auditError };
  return { ...result, audit: Object.fromEntries(Object.entries(trail).filter(([, v]) => v !== undefined)) };
}

/** The conditional writes on the generation seen (a certmagic hold cleared first, under the same conditions). */
async function writeSeen(
  objects: BucketObjects,
  name: string,
  current: LockInfo,
  generation: string,
  metageneration: string | undefined,
): Promise<ForceReleaseResult> {
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
