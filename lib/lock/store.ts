// What every store (GCS, S3, Redis, PostgreSQL) answers, in one shape (stores.md): a LockView is a LockInfo with the
// store, the source it was found under, and an opaque `version` naming exactly the state the operator saw, which a
// force-release is conditioned on.
import type { AuditRecord } from './audit-record';
import { AuditWriteError } from './errors';
import type { LockInfo } from './types';

export type StoreKind = 'gcs' | 's3' | 'redis' | 'postgres';

export interface LockView extends LockInfo {
  store: StoreKind;
  /** The source as shown (never with credentials), e.g. `s3://tf-state/envs/`. */
  source: string;
  /** Opaque: what a force-release must match (GCS `generation.metageneration`, S3 the ETag). */
  version: string;
  /** The version for people, e.g. `gen 1714… / 3` or `ETag 9b2cf535`. */
  versionLabel: string;
}

export type StoreReleaseOutcome = 'released' | 'changed' | 'refreshed' | 'gone' | 'not-a-lock';

export interface StoreReleaseResult {
  outcome: StoreReleaseOutcome;
  /** The lock as it is now, when it still exists. */
  current: LockView | null;
  /** Audit object names written (attempt, outcome). */
  audit: string[];
}

export interface StoreList {
  locks: LockView[];
  /** How many objects or keys under the source were not locks. */
  skipped: number;
  serverTime: string;
}

/** The parts of a source URL: `gs://bucket/prefix`, `s3://bucket/prefix`. */
export interface ParsedSource {
  store: StoreKind;
  bucket: string;
  prefix: string;
  /** As shown: no credentials. */
  display: string;
}

const BUCKET = /^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/;

/** Parses an object-store source URL; throws a message that names the problem and the fix. */
export function parseObjectSource(url: string): ParsedSource {
  const m = /^(gs|s3):\/\/([^/]*)(?:\/(.*))?$/.exec(url);
  if (!m) throw new Error(`Expected gs://BUCKET/PREFIX or s3://BUCKET/PREFIX, got ${JSON.stringify(url)}.`);
  const [, scheme, bucket, prefix = ''] = m;
  if (!BUCKET.test(bucket!)) throw new Error(`${JSON.stringify(bucket)} in ${url} is not a valid bucket name.`);
  return {
    store: scheme === 'gs' ? 'gcs' : 's3',
    bucket: bucket!,
    prefix,
    display: `${scheme}://${bucket}/${prefix}`,
  };
}

/** The GCS view of a LockInfo: version = generation.metageneration. */
export function gcsView(lock: LockInfo, source: string): LockView {
  return {
    ...lock,
    store: 'gcs',
    source,
    version: `${lock.generation}.${lock.metageneration}`,
    versionLabel: `gen ${lock.generation} / ${lock.metageneration}`,
  };
}

/** What the console and the CLI ask of every store but GCS (whose older API they call directly). */
export interface LockStore {
  /** The source as shown, never with credentials. */
  readonly source: string;
  list(): Promise<StoreList>;
  inspect(name: string): Promise<LockView | null>;
  forceRelease(o: {
    name: string;
    version: string;
    reason: string;
    operator: string;
    identity?: string;
  }): Promise<StoreReleaseResult>;
  readAudit(from: Date, to: Date, lock?: string): Promise<AuditRecord[]>;
  /** The store's clock as last read (server time, milliseconds). */
  now(): number;
}

/**
 * A force-release in every store's trail: the attempt recorded first (nothing is mutated when it cannot be: an
 * AuditWriteError), then the store's one conditional mutation, then the outcome (best effort).
 */
export async function recordedRelease(
  o: {
    lock: string;
    /** Where the trail is, for the error message. */
    trail: string;
    fields: Record<string, string>;
    record: (fields: Record<string, string>) => Promise<string>;
  },
  mutate: () => Promise<{ outcome: StoreReleaseOutcome; current: LockView | null }>,
): Promise<StoreReleaseResult> {
  let attempt: string;
  try {
    attempt = await o.record({ event: 'force-release-requested', lock: o.lock, ...o.fields });
  } catch (err) {
    throw new AuditWriteError(o.lock, o.trail, err);
  }
  const { outcome, current } = await mutate();
  const done = await o
    .record({
      event: outcome === 'released' ? 'force-released' : 'force-release-refused',
      lock: o.lock,
      ...o.fields,
      outcome,
    })
    .catch(() => '');
  return { outcome, current, audit: done ? [attempt, done] : [attempt] };
}
