// What every store (GCS, S3, Redis, PostgreSQL, …) answers, in one shape (docs/stores.md): a LockView is a LockInfo
// with the store, the source it was found under, an opaque `version` naming exactly the state the operator saw (which a
// force-release is conditioned on), and the store's own words for showing it.
import type { AuditRecord } from './audit/record';
import type { ClaimLeasing } from './claim-lease';
import { LockOptionsError } from './errors';
import type { LockInfo, StoreTerms } from './types';

export type { StoreTerms } from './types';
export type { ChangeFeed, ChangeFeedHandlers, InspectOptions, ListOptions } from './store-feeds';
export { BURST_EVIDENCE_MS } from './store-feeds';
import type { ChangeFeed, ChangeFeedHandlers, InspectOptions, ListOptions } from './store-feeds';
import { branded } from './support/branded';

/** A store's kind as the registry names it (`lib/lock/stores/index.ts`); the core never branches on it. */
export type StoreKind = string;

/**
 * One contender queued behind the holder, in the order the store will grant the lock (etcd: create revision;
 * ZooKeeper: sequence suffix). Shown, never released: removing a waiter can make two holders (facts-coordination).
 */
export interface LockWaiter {
  /** The waiter as its recipe records it (a lease, a session, a node's data). */
  identity: string;
  /** The waiter's own key, node or row under the lock, where it has one. */
  key?: string;
  /** When the store says it started waiting, or when the console first saw it ("seen since"). */
  since?: string;
  /** The waiter's version in the store's words (create revision, sequence number). */
  version: string;
}

export interface LockView extends LockInfo {
  store: StoreKind;
  /** The source as shown (never with credentials), e.g. `s3://tf-state/envs/`. */
  source: string;
  /** Opaque: what a force-release must match (GCS `generation.metageneration`, S3 `ETAG.MILLIS`…), byte for byte. */
  version: string;
  /** The version for people, in the store's words, e.g. `generation 1714… / metageneration 3` or `ETag 9b2cf535`. */
  versionLabel: string;
  terms: StoreTerms;
  /**
   * Fields that may carry other people's secrets or personal data (a holder's whole current query): shown to those
   * who may end the holder's work (operators, the CLI with the store's credentials), never to viewers.
   */
  sensitive?: [label: string, value: string][];
  /**
   * The same logical lock kept in another store names the same key (Terraform's S3 backend with both use_lockfile
   * and dynamodb_table holds one LockInfo as an S3 .tflock and a DynamoDB item): shown as a pair, released together.
   */
  pairKey?: string;
  /** Contenders queued behind the holder, first to be granted first; absent or empty where the store queues none. */
  waiters?: LockWaiter[];
  /** This key is a waiter queued for the lock named here (shown, never released, as `releasable: false`). */
  queuedFor?: string;
}

/** The view for someone who may not see `sensitive` fields (a viewer): the same lock without them. */
export function withoutSensitive<T extends { sensitive?: unknown }>(view: T): Omit<T, 'sensitive'> {
  const rest = { ...view };
  delete rest.sensitive;
  return rest;
}

export type StoreReleaseOutcome = 'released' | 'changed' | 'refreshed' | 'gone' | 'not-a-lock';

/** `{ name, version, reason }` as the operator saw it, whatever the store. */
export interface ReleaseRequest {
  name: string;
  version: string;
  reason: string;
  operator: string;
  /** The owner seen: a newer version by the same owner is `refreshed` (alive), not `changed`. */
  identity?: string;
  /** The same, as the console sends it: `ownerDigest(identity)` (lib/owner-digest.ts), never the full text. */
  ownerDigest?: string;
  /**
   * The operator accepts the view's `terms.twoLeaders` (a leader election's old leader keeps leading until its session
   * ends). A store refuses to release such a lock without it (a LockOptionsError: CLI 2, API 400).
   */
  acceptTwoLeaders?: boolean;
}

export interface StoreReleaseResult {
  outcome: StoreReleaseOutcome;
  /** The lock as it is now, when it still exists. */
  current: LockView | null;
  /** The trail's records written (attempt, outcome). */
  audit: string[];
  /** The same records by role: which of the attempt and the outcome were written (a refusal may write no attempt). */
  recorded?: { attempt?: string; outcome?: string };
  /** False when the store cannot tell whether this request or someone else at the same moment removed it. */
  confirmed?: boolean;
  /** The outcome could not be recorded (the attempt was): why. */
  auditError?: string;
  /** The store's own words for this outcome where the general sentence is not the whole truth (a refusal naming the
   * live process that holds a lock file; a conflict met while putting a successor's file back). */
  detail?: string;
  /** The lock as it was released (set when released), e.g. for its pair in another store. */
  released?: LockView;
}

/** One page of a listing; a store without paging answers one page with no token. */
export interface StorePage {
  locks: LockView[];
  /** How many objects, keys or rows under the source were not locks. */
  skipped: number;
  /** Why some of the skipped could not be read (a malformed body, a name that is not UTF-8), when a store says. */
  skippedWhy?: string[];
  serverTime: string;
  nextPageToken?: string;
}
/** @deprecated the name of StorePage before listings were paged. */
export type StoreList = StorePage;

/** What a malformed version is told: the shape of a version on this store, with an example. */
export interface VersionShape {
  test(version: string): boolean;
  describe: string;
}

/**
 * The library contract every store keeps (docs/stores.md): list, inspect, one guarded force-release, the trail, the
 * clock. What only the console needs (claims, push observers, change feeds, estimates) is a capability of its own
 * below, each with its type guard, as Terraform keeps `ClientLocker` beside `Client`.
 */
export interface LockStore {
  /** The source as shown, never with credentials. */
  readonly source: string;
  readonly kind: StoreKind;
  readonly versionShape: VersionShape;
  list(pageToken?: string, o?: ListOptions): Promise<StorePage>;
  /** The object, key or row under `name`: a lock, something that is not (`releasable: false`), or null (absent). */
  inspect(name: string, o?: InspectOptions): Promise<LockView | null>;
  forceRelease(request: ReleaseRequest): Promise<StoreReleaseResult>;
  readAudit(from: Date, to: Date, lock?: string): Promise<AuditRecord[]>;
  /** One event in the store's trail; resolves to its id. */
  record(fields: Record<string, string>): Promise<string>;
  /** The store's clock as last read (server time, milliseconds). */
  now(): number;
  close(): Promise<void>;
  /** Optional: why this source is listed but never cleared (e.g. an endpoint without conditional deletes). */
  readonly readOnly?: string;
  /**
   * Optional: why this store's audit trail would not survive its server's restart (kept in memory only, e.g. Redis
   * with no save rule and appendonly no), or null where it would or the server does not say. Absent where a trail
   * always outlives a restart.
   */
  memoryOnlyTrail?(): Promise<string | null>;
}

/** Capability: create-only markers and claim leases beside the trail (one webhook delivery per event, all replicas). */
export interface ClaimingStore extends LockStore {
  /**
   * Creates the marker `key` (letters, digits, `-`) beside the trail only if it is absent, as the change
   * feed's outside deletions are written once: true for the one caller, of every replica, that created it (one
   * webhook delivery per event across replicas); false when it was there already. Given `lease`, a store that keeps
   * claims as leases (claim-lease.ts: each record created, read and replaced by one conditional write, so a claim whose
   * replica died is taken over) hands its claim records to it instead and answers what it answers; a store that does
   * not ignores it and makes its marker.
   */
  claim(key: string, lease?: ClaimLeasing): Promise<boolean>;
}

/** Capability: records one change notification of the store in its trail (GCS: a Pub/Sub push of a bucket). */
interface ObservingStore extends LockStore {
  observe(notification: never): Promise<{ written: string[]; ignored?: string }>;
}

/**
 * Capability: a change feed that calls `changed` with the names that changed, as the store reports them, until stopped.
 * Resolves to null where this store has none here (e.g. Redis without keyspace events enabled by its operator): the
 * console then lists at the store's own pace.
 */
export interface FeedingStore extends LockStore {
  changes(handlers: ChangeFeedHandlers): Promise<ChangeFeed | null>;
}

/**
 * Capability: how many keys, objects or rows a full listing walks (Redis DBSIZE), for a listing's progress ("listed
 * 230 000 of ~1 000 000 keys"); absent where the store has no cheap estimate.
 */
export interface EstimatingStore extends LockStore {
  estimateTotal(): Promise<number>;
}

/** Every capability a store may have beside the contract, each member optional: what a judged store forwards. */
export type StoreCapabilities = Partial<
  Omit<ClaimingStore & ObservingStore & FeedingStore & EstimatingStore, keyof LockStore>
>;

const has =
  <S extends LockStore>(member: Exclude<keyof S, keyof LockStore>) =>
  (store: LockStore): store is S =>
    typeof (store as unknown as Record<PropertyKey, unknown>)[member] === 'function';
export const canClaim = has<ClaimingStore>('claim');
export const canObserve = has<ObservingStore>('observe');
export const hasChangeFeed = has<FeedingStore>('changes');
export const canEstimate = has<EstimatingStore>('estimateTotal');

/** Whether a view is one the store's listing shows (a lock, not data, a key of another kind or a queued waiter). */
export const isListedLock = (v: LockView): boolean =>
  v.pending === true || (v.format !== 'other' && v.format !== 'data' && v.queuedFor === undefined);

/** A version that does not have the store's shape: a usage error naming the shape (CLI 2, API 400). */
export class VersionShapeError extends LockOptionsError {
  constructor(
    readonly source: string,
    version: string,
    shape: string,
  ) {
    super(`${JSON.stringify(version.slice(0, 80))} is not a version of ${source}: ${shape}`);
    this.name = 'VersionShapeError';
  }
}

export function assertVersion(store: Pick<LockStore, 'source' | 'versionShape'>, version: string): void {
  if (!store.versionShape.test(version))
    throw new VersionShapeError(store.source, version, store.versionShape.describe);
}

export { notALockView } from './not-a-lock';
export { recordedRelease } from './audit/recorded-release';

branded(VersionShapeError, 'VersionShapeError');
