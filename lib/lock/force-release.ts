// forceReleaseLock: one DELETE with the generation (and metageneration) the operator saw. It can never delete a
// successor's lock: a successor has another generation.
import type { Storage } from '@google-cloud/storage';
import { AuditWriter } from './audit';
import { Backoff, sleep } from './backoff';
import { LockOptionsError } from './errors';
import { BucketObjects, isTransient, statusOf } from './gcs';
import { inspectLock } from './inspect';
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

export type ForceReleaseOutcome = 'released' | 'changed' | 'refreshed' | 'gone';

export interface ForceReleaseResult {
  outcome: ForceReleaseOutcome;
  /** The lock as it is now, for `changed` (a successor holds it) and `refreshed` (the holder is alive). */
  current?: LockInfo;
}

const DECIMAL = /^[0-9]{1,20}$/;
const ATTEMPTS = 4;

export async function forceReleaseLock(options: ForceReleaseOptions): Promise<ForceReleaseResult> {
  const { storage, bucket, name, generation, metageneration } = options;
  validateLockName(name);
  if (!DECIMAL.test(generation))
    throw new LockOptionsError(
      `Expected \`generation\` to be a decimal integer string, got ${JSON.stringify(generation)}`,
    );
  if (metageneration !== undefined && !DECIMAL.test(metageneration)) {
    throw new LockOptionsError(
      `Expected \`metageneration\` to be a decimal integer string, got ${JSON.stringify(metageneration)}`,
    );
  }
  const objects = new BucketObjects(storage, bucket);
  const result = await deleteOnce(objects, name, generation, metageneration);
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

async function deleteOnce(
  objects: BucketObjects,
  name: string,
  generation: string,
  metageneration: string | undefined,
): Promise<ForceReleaseResult> {
  const backoff = new Backoff();
  let unknown = false;
  for (let attempt = 1; ; attempt++) {
    try {
      await objects.delete(name, { ifGenerationMatch: generation, ifMetagenerationMatch: metageneration });
      return { outcome: 'released' };
    } catch (err) {
      const status = statusOf(err);
      if (status === 404 || status === 412) {
        const current = await objects.get(name);
        if (!current) return { outcome: unknown && status === 404 ? 'released' : 'gone' };
        const info = inspectLock(current, objects.clock.now(), { bucket: objects.bucket });
        // Same generation after a 412: the holder refreshed since the operator looked, so it is alive.
        return { outcome: info.generation === generation ? 'refreshed' : 'changed', current: info };
      }
      if (!isTransient(err) || attempt >= ATTEMPTS) throw err;
      if (status !== 429) unknown = true;
      await sleep(backoff.afterWriteFailure(status));
    }
  }
}
