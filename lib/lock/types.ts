import type { HealthWords } from './health-words';

export type { HealthWords } from './health-words';
export type { LockFormat } from './lock-format';
import type { LockFormat } from './lock-format';
import type { Evidence, HolderSign, Verdict } from './verdict/verdict';

/** Every health value, most urgent first. `free`: a released marker, an object a library keeps after release. */
export const LOCK_HEALTHS = ['expired', 'overdue', 'long-held', 'unknown', 'healthy', 'free'] as const;
export type LockHealth = (typeof LOCK_HEALTHS)[number];

/** What operators and programs see of one lock object. JSON-serialisable; times are ISO strings on server time. */
export interface LockInfo {
  bucket: string;
  name: string;
  format: LockFormat;
  identity?: string;
  host?: string;
  pid?: string;
  purpose?: string;
  /** Fencing token: a decimal string, compare as a big integer. */
  generation: string;
  metageneration: string;
  createdAt: string;
  /**
   * Set on a window's row (which carries no `terms`) where the format records no acquire time: `createdAt` is when
   * the console first saw the lock, so the row says "seen for", never "held for" (as the CLI says "not recorded").
   */
  seenOnly?: true;
  updatedAt: string;
  ttlMs?: number;
  refreshIntervalMs?: number;
  /** When the lock becomes stale (takeover allowed) unless refreshed; absent for foreign formats. */
  expiresAt?: string;
  /** What the lock becomes at `expiresAt` without a refresh: stale (`expired`), or `free` for formats whose holder
   * sets a free-at time (go-gcslock). Lets a client keep health current between reads. */
  afterExpiry?: 'expired' | 'free';
  health: LockHealth;
  heldMs: number;
  /** Custom metadata as stored. */
  metadata: Record<string, string>;
  /** Human name of the format, e.g. "Terraform state lock". */
  formatLabel: string;
  /** Fields in the format's own terms (Terraform's Who, Operation, Path; Pulumi's stack, user, host...). */
  details: [label: string, value: string][];
  /** False for data and other objects: Lockboard never deletes what it does not recognise as a lock. */
  releasable: boolean;
  /** Listed before its body was read (a listing that shows metadata first): name and times only, details follow. */
  pending?: boolean;
  /**
   * How a release is done: one conditional DELETE, clear a temporary hold first (certmagic), or one conditional write
   * that clears the holder and keeps the record (a Kubernetes Lease, as its writers release it).
   */
  releaseRule: 'delete' | 'clear-hold-then-delete' | 'clear-holder' | 'none';
  /** What releasing does, for operators, in the format's terms. */
  releaseNote: string;
  /** Why the health could not be judged, or why the object is not a lock. */
  note?: string;
  size: number;
  temporaryHold?: boolean;
  /** Set on the views the console and `ls --json` return (every store's LockView, lib/lock/store.ts). */
  store?: string;
  source?: string;
  /** What a force-release is conditioned on (GCS `generation.metageneration`, S3 `ETAG.MILLIS`). */
  version?: string;
  versionLabel?: string;
  /** The store's own words for this lock (every store's LockView has them). */
  terms?: StoreTerms;
  /** Fields only those who may end the holder's work see (LockView.sensitive). */
  sensitive?: [label: string, value: string][];
  /** What the store read of the holder beyond the lock's bytes (a process, a session, a Pod, two reads): folded into
   * `verdict` by lib/lock/verdict (the one place that judges) before a view leaves the store. */
  signs?: HolderSign[];
  /** The holder gone, stalled, alive or unknown (docs/verdict.md), with `sentence` and `evidence`. Absent on
   * free locks and on what is not a lock. */
  verdict?: Verdict;
  /** The verdict in one sentence, in the store's own words. */
  sentence?: string;
  /** A window's row: the sentence with its moving figures as marks, which the browser renders from the row's times. */
  sentenceMarks?: string;
  /** What was read beyond the lock's bytes: what it said, where, when. */
  evidence?: Evidence[];
  /** `unknown` until a second read this long after the first (a renewal, an expiry moving). */
  settleMs?: number;
}

/** How a lock is shown, in its store's own terms: nothing another store's words (docs/stores.md "One view of a lock").
 */
export interface StoreTerms {
  /** The store for people: "Cloud Storage", "S3", "Redis", "PostgreSQL". */
  storeLabel: string;
  /** What the version names, e.g. "generation / metageneration", "ETag + last modified", "hash of the value". */
  versionName: string;
  /** Label of `createdAt`: "Held since", or "Seen since" where the format records no acquire time. */
  since: string;
  /** Label of `updatedAt` where the store records writes ("Last refresh", "Last write"); absent: not shown. */
  updated?: string;
  /** Label of `ttlMs` ("TTL / refresh interval", "TTL"); absent: the lock has no TTL and no TTL row is shown. */
  ttl?: string;
  /** How the holder shows it is alive, one sentence (a refresh, a TTL, an open session). */
  liveness: string;
  /** What clearing does to the holder, one sentence for the release dialog. */
  effect: string;
  /** The store's release rule: the one conditional mutation, in the store's terms. */
  rule: string;
  /** Where the lock's history comes from and what it leaves out. */
  trail: string;
  /** The release needs the lock's name typed (it ends more than the lock, e.g. a whole session). */
  confirmByName?: boolean;
  /** What an expired lock means here, where it is not "the next acquirer takes it over" (lock files: git never does). */
  expiredMeans?: string;
  /** A refused release (changed or refreshed) in the store's own words, e.g. Kubernetes' 409 Conflict. */
  conflict?: string;
  /** Whether `metadata` holds anything worth a "Raw metadata" panel. */
  rawMetadata?: boolean;
  /**
   * A release whose old holder is not told (a leader election's old leader keeps leading, a ZooKeeper recipe's holder
   * keeps holding, until its session ends): the sentence the operator must accept. Set: a release needs
   * `acceptTwoLeaders` (the CLI's --accept-two-leaders, the dialog's checkbox).
   */
  twoLeaders?: string;
  /** The store's truth table for this lock's format: its own words per health, where the neutral ones say less. */
  health?: HealthWords;
}

/** The fields of a GCS object resource the lock core reads. */
export interface GcsObjectResource {
  name: string;
  bucket?: string;
  generation: string | number;
  metageneration: string | number;
  timeCreated: string;
  updated: string;
  size?: string | number;
  temporaryHold?: boolean;
  metadata?: Record<string, string | number | boolean | null> | null;
}
