// What the registry knows of a store: how its source URLs parse, how it is opened (its SDK loaded only then), and how
// Lockboard's own lock is taken on it for `lockboard run`. One definition per store folder; no SDK imported here.
import type { LockInfo } from '../types';
import type { LockStore, VersionShape } from '../store';
import type { StoreHolds } from '../hold-types';
import type { Discovery } from './discovery';

/** A parsed source URL: what the console and the CLI need to list, release and audit under it. */
export interface SourceSpec {
  kind: string;
  /** As shown: never with credentials (`gs://b/p/`, `redis://host:6379/0?match=lock*`). */
  id: string;
  /** The container (bucket, server, database, table): the name requests use to pick a source's trail. */
  bucket: string;
  /** `bucket` as requests name it (`?bucket=`): unique across stores. */
  bucketId: string;
  /** Names under the source start with this ("" where the store has no prefixes). */
  prefix: string;
  /** The URL with its credentials: server side only, never shown. */
  url: string;
  /** A name pattern the store filters by (Redis SCAN MATCH). */
  match?: string;
  /** Listed, never cleared, and why. */
  readOnly?: string;
  /**
   * The audit trail this source's events are in, where several sources of different containers share one (DynamoDB
   * lock tables sharing one audit table): read once for all of them. Absent: the trail is the container's (`bucketId`).
   */
  trail?: string;
}

/** Configuration a store reads: the process environment for the CLI, the validated one for the console. */
export interface OpenOptions {
  env: Record<string, string | undefined>;
  longHeldMs?: number;
  auditPrefix?: string;
  /** A long-lived console store (reconnects, pools) or a one-shot CLI store (fails fast, closes). */
  role: 'console' | 'cli';
}

export interface RunOptions {
  ttlMs: number;
  timeoutMs?: number;
  identity?: string;
  purpose?: string;
  signal: AbortSignal;
  onWait?: (holder: LockInfo) => void;
  /** A store request failed and is retried after `retryInMs` (where the store's lock retries by itself). */
  onStoreError?: (error: Error, retryInMs: number) => void;
}

/** What `lockboard run` needs of a held lock, whatever the store. */
export interface HeldLock {
  name: string;
  token: string;
  signal: AbortSignal;
  releaseWith(details: { outcome: 'ok' | 'error'; error?: string }): Promise<{ outcome: string }>;
}

/**
 * One lock format a store reads (docs/formats.md): its id (unique across stores: the console's `?format=` filter and
 * `LockInfo.format`), its name for people, and one sentence of what writes it and how it is held.
 */
export interface FormatDeclaration {
  id: string;
  label: string;
  words: string;
  /** The id this format had before ids were unique across stores: a saved `?format=` filter of it still matches. */
  formerly?: string;
}

/** A store's formats with their ids as literals (the registry's union of format ids is made of them). */
export const declareFormats = <const T extends readonly FormatDeclaration[]>(formats: T): T => formats;

/**
 * A store's own error judged: its service unavailable now (the console answers 503, the CLI exits 3), with the words to
 * show; or a request the store refused as malformed, the client's mistake (the console answers 400).
 */
export type StoreErrorJudgement = { unavailable: string } | { clientMistake: string };

export interface StoreDefinition {
  kind: string;
  /** For people: "Cloud Storage", "S3", "Redis", "PostgreSQL". */
  label: string;
  /** URL schemes without "://", e.g. ["redis", "rediss"]. */
  schemes: string[];
  /** The source form, for help and messages. */
  form: string;
  /** Where its credentials come from, as its own tools read them (help pages name them). */
  credentials?: string;
  /** How often a console re-lists a source of this store while someone watches it and no change feed tells it more. */
  watchIntervalMs: number;
  versionShape: VersionShape;
  /** The lock formats this store reads: its own (declared in its folder) and the tool formats it shares. */
  formats: readonly FormatDeclaration[];
  /** Parses a source; throws an Error whose message names the problem and the fix. */
  parse(url: string, env: Record<string, string | undefined>): SourceSpec;
  /** Whole-lock URLs (`gs://bucket/locks/a`): the source and the lock's name, or undefined when `url` is a source. */
  splitLockUrl?(url: string): { source: string; name: string } | undefined;
  /** Configuration problems for the console's start-up, by variable. */
  configIssues?(env: Record<string, string | undefined>, o: { demo: boolean }): { variable: string; message: string }[];
  /**
   * Optional: judges the errors of its own client or SDK (an error class, an SDK's error shape) that the core's codes
   * (lib/lock/store-errors.ts) do not; undefined for an error not its own. Loads no SDK.
   */
  judgeError?(err: unknown): StoreErrorJudgement | undefined;
  open(spec: SourceSpec, o: OpenOptions): Promise<LockStore>;
  /** Optional: holds (`lockboard hold`): the formats it writes a hold in and its create-only write (lib/lock/hold.ts). */
  hold?(): Promise<StoreHolds>;
  /** Lockboard's own lock on this store (`lockboard run`). */
  acquire(spec: SourceSpec, name: string, o: OpenOptions & RunOptions): Promise<HeldLock>;
  /**
   * Optional: creates what Lockboard needs in the store if absent (`lockboard <kind> init`); `spec` may be absent
   * where the store needs no source for it. Resolves to what was done, for people.
   */
  init?(spec: SourceSpec | undefined, o: OpenOptions & { schema?: string }): Promise<string>;
  /** Optional: finds the sources under a store without a path (`lockboard discover`, lib/lock/stores/discovery.ts). */
  discover?: Discovery;
}

/** A message for a missing optional SDK: what to install. */
export function missingSdk(what: string, pkg: string): Error {
  return Object.assign(new Error(`${what} need ${pkg}: npm install ${pkg}`), { code: 'SDK_MISSING' });
}

/** Whether an endpoint URL is on this machine (demo mode never runs against a real cloud). */
export function isLoopback(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/**
 * Lockboard's lock on a store as `lockboard run` holds it: `acquire` runs with the store's connection, which is
 * closed when acquiring fails and after the release; `release` answers the store lock's own outcome.
 */
export async function holdOn<L extends { fencingToken: string; signal: AbortSignal }>(o: {
  name: string;
  close: () => Promise<void> | void;
  acquire: () => Promise<L>;
  release: (lock: L, details: { outcome: 'ok' | 'error'; error?: string }) => Promise<string>;
}): Promise<HeldLock> {
  let lock: L;
  try {
    lock = await o.acquire();
  } catch (err) {
    await o.close();
    throw err;
  }
  return {
    name: o.name,
    token: lock.fencingToken,
    signal: lock.signal,
    async releaseWith(details) {
      try {
        return { outcome: (await o.release(lock, details)) === 'released' ? 'released' : 'lost' };
      } finally {
        await o.close();
      }
    },
  };
}

/** What a store's lock takes of the run options (the rest is the CLI's). */
export function runOptions(o: RunOptions) {
  const { ttlMs, timeoutMs, identity, purpose, signal, onWait } = o;
  return { ttlMs, timeoutMs, identity, purpose, signal, onWait };
}
