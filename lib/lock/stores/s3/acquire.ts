// acquireS3Lock / withS3Lock: the protocol's acquire on S3. Absent → one PutObject If-None-Match: *. A released
// marker or a stale lock (LastModified + ttl passed on S3's clock) → one PutObject If-Match on the ETag read, with the
// fencing token one above the one it replaces. Held → wait with backoff (reads only), until timeoutMs.
import { randomBytes } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { LockOptionsError } from '../../errors';
import { holdAndRelease } from '../../holding/hold';
import { leaseSettings, type LeaseRequest } from '../../holding/options';
import { waitForLock } from '../../holding/wait';
import type { LockView } from '../../store';
import { s3Status, S3Objects } from './objects';
import { heldBody, S3Lock, type S3LockSettings } from './lock';
import { S3LockStore } from './store';
import { lockboardFields } from './view';

export interface S3AcquireOptions extends LeaseRequest<LockView> {
  client: S3Client;
  bucket: string;
  /** The object key, e.g. `locks/deploy-prod`. */
  name: string;
  /** Audit events (acquired, took-over, released) under this prefix of the bucket, or false for none. */
  audit?: { prefix?: string } | false;
}

/** S3's LastModified and Date have whole seconds: a lock is stale only a second after its TTL, never early. */
const CLOCK_GRAIN_MS = 1_000;

export async function acquireS3Lock(o: S3AcquireOptions): Promise<S3Lock> {
  const settings = settingsOf(o);
  const objects = new S3Objects(o.client, o.bucket);
  const store = new S3LockStore({ client: o.client, bucket: o.bucket, auditPrefix: auditPrefixOf(o) });
  return waitForLock(
    o,
    async () => {
      const current = await objects.get(o.name);
      const fields = current ? lockboardFields(current.body) : undefined;
      const previous = fields?.token !== undefined && /^\d+$/.test(fields.token) ? BigInt(fields.token) : 0n;
      // A floor from S3's clock keeps tokens growing even after someone deleted the object (and its counter) by hand
      const floor = BigInt(Math.floor(objects.now())) * 1000n;
      const token = previous + 1n > floor ? previous + 1n : floor;
      const stale =
        fields !== undefined &&
        (fields.released === 'true' ||
          current!.lastModifiedMs + Number(fields.ttl_ms) + CLOCK_GRAIN_MS <= objects.now());
      if (current && !stale) return null; // held: wait
      const acquiredMs = objects.now();
      const body = heldBody(settings, token, 1, acquiredMs, randomBytes(8).toString('hex'));
      try {
        const etag = await objects.put(o.name, body, current ? { ifMatch: current.etag } : { ifNoneMatch: '*' });
        if (o.audit !== false) {
          const event = current && fields?.released !== 'true' ? 'took-over' : 'acquired';
          void store
            .record({ event, lock: o.name, identity: settings.identity, generation: String(token) })
            .catch(() => undefined);
        }
        return new S3Lock(objects, settings, { token, etag, seq: 1, acquiredMs });
      } catch (err) {
        const status = s3Status(err);
        if (status !== 412 && status !== 409 && status !== 404) throw err;
        return null; // someone else won: read again
      }
    },
    () => store.inspect(o.name),
  );
}

/** Runs `fn` while holding the lock and releases it after, whatever `fn` does. */
export async function withS3Lock<T>(o: S3AcquireOptions, fn: (lock: S3Lock) => Promise<T>): Promise<T> {
  const lock = await acquireS3Lock(o);
  const store = () => new S3LockStore({ client: o.client, bucket: o.bucket, auditPrefix: auditPrefixOf(o) });
  const trail = {
    lock: o.name,
    record: (e: Record<string, string>) =>
      store()
        .record(e)
        .catch(() => undefined),
  };
  return holdAndRelease(lock, fn, o.audit === false ? null : trail);
}

function settingsOf(o: S3AcquireOptions): S3LockSettings {
  if (!o || typeof o !== 'object') throw new LockOptionsError('Expected an options object');
  if (!o.client || typeof (o.client as { send?: unknown }).send !== 'function')
    throw new LockOptionsError('Expected `client` to be an S3Client from @aws-sdk/client-s3');
  if (typeof o.bucket !== 'string' || o.bucket === '')
    throw new LockOptionsError('Expected `bucket` to be a non-empty string');
  return leaseSettings(o);
}

const auditPrefixOf = (o: S3AcquireOptions): string | undefined => (o.audit ? o.audit.prefix : undefined);
