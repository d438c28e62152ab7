import type { Storage } from '@google-cloud/storage';

export type LockFormat = 'lockboard' | 'ruby' | 'terraform' | 'unknown';
export type LockHealth = 'healthy' | 'overdue' | 'expired' | 'long-held' | 'unknown';

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
  updatedAt: string;
  ttlMs?: number;
  refreshIntervalMs?: number;
  /** When the lock becomes stale (takeover allowed) unless refreshed; absent for foreign formats. */
  expiresAt?: string;
  health: LockHealth;
  heldMs: number;
  /** Custom metadata as stored. */
  metadata: Record<string, string>;
  /** Terraform `.tflock` body fields, when read. */
  terraform?: { id?: string; operation?: string; who?: string; created?: string; path?: string };
}

/** The fields of a GCS object resource the lock core reads. */
export interface GcsObjectResource {
  name: string;
  bucket?: string;
  generation: string | number;
  metageneration: string | number;
  timeCreated: string;
  updated: string;
  metadata?: Record<string, string | number | boolean | null> | null;
}

export interface LockOptions {
  storage: Storage;
  bucket: string;
  /** The full object name, e.g. `locks/deploy-prod`. */
  name: string;
  /** Unique per live holder; default `<hostname>:<pid>:<8 random hex>`. Pass a stable one to allow adoption after a restart. */
  identity?: string;
  ttlMs?: number;
  refreshIntervalMs?: number;
  maxRefreshFailures?: number;
  purpose?: string;
  /** Audit events under `prefix` (default `.lockboard/audit/`), or `false` to write none. */
  audit?: { prefix?: string } | false;
  /** Called while waiting, each time the holder is read. */
  onWait?: (holder: LockInfo) => void;
  /** Per-request timeout for acquire and release requests (default 10 s). */
  requestTimeoutMs?: number;
}

export interface AcquireOptions extends LockOptions {
  /** undefined = wait without limit; 0 = try once. */
  timeoutMs?: number;
  signal?: AbortSignal;
}
