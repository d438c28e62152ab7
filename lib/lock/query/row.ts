// A lock as the index keeps it: one small object per lock, times as numbers, the lower-cased text the filter reads,
// and every field that locks of one format share (labels, notes, the store's terms) in one interned object. Rebuilt
// into a LockView-shaped row (`expand`) only for the rows of a window. About 400 bytes a lock instead of ~2 KB.
import type { LockView, LockWaiter } from '../store';
import type { LockFormat, LockHealth } from '../types';
import { sharedOf, type Shared } from './shared';

const NONE = Number.NaN;
const iso = (ms: number) => (Number.isNaN(ms) ? undefined : new Date(ms).toISOString());

export class Row {
  /** The index's last listing pass that saw this lock (lock-index.ts). */
  pass = 0;

  constructor(
    readonly name: string,
    readonly shared: Shared,
    readonly format: LockFormat,
    public health: LockHealth,
    readonly identity: string | undefined,
    readonly host: string | undefined,
    readonly purpose: string | undefined,
    readonly pid: string | undefined,
    readonly version: string,
    readonly versionLabel: string,
    readonly generation: string,
    readonly metageneration: string,
    readonly created: number,
    readonly updated: number,
    /** NaN: no expiry. */
    readonly expires: number,
    readonly afterExpiry: LockView['afterExpiry'],
    readonly ttlMs: number | undefined,
    readonly refreshIntervalMs: number | undefined,
    readonly heldMs: number,
    readonly size: number,
    readonly releasable: boolean,
    readonly pending: boolean,
    readonly temporaryHold: boolean | undefined,
    readonly pairKey: string | undefined,
    readonly waiters: LockWaiter[] | undefined,
    /** name, owner, purpose and host, lower-cased, for the text filter. */
    readonly hay: string,
  ) {}

  withHealth(health: LockHealth): Row {
    // through the constructor: every row keeps one shape (the query's loop stays monomorphic)
    const r = new Row(
      this.name,
      this.shared,
      this.format,
      health,
      this.identity,
      this.host,
      this.purpose,
      this.pid,
      this.version,
      this.versionLabel,
      this.generation,
      this.metageneration,
      this.created,
      this.updated,
      this.expires,
      this.afterExpiry,
      this.ttlMs,
      this.refreshIntervalMs,
      this.heldMs,
      this.size,
      this.releasable,
      this.pending,
      this.temporaryHold,
      this.pairKey,
      this.waiters,
      this.hay,
    );
    r.pass = this.pass;
    return r;
  }
}

/** The rows of the windows: the lock as the console shows it, without details, metadata or sensitive fields. */
export type IndexRow = Omit<LockView, 'sensitive'> & { sensitive?: undefined };

export const num = (t: string | undefined) => (t ? Date.parse(t) : NONE);

/** The filter's text: name, owner, purpose and host, lower-cased; the name itself (no copy) when that is all of it. */
function hayOf(v: LockView): string {
  const rest = [v.identity, v.purpose, v.host].filter(Boolean);
  const name = v.name.toLowerCase(); // the same string when already lower-case
  return rest.length ? [name, ...rest].join('\u0000').toLowerCase() : name;
}

export function compact(v: LockView): Row {
  return new Row(
    v.name,
    sharedOf(v),
    v.format,
    v.health,
    v.identity,
    v.host,
    v.purpose,
    v.pid,
    v.version,
    v.versionLabel,
    v.generation,
    v.metageneration,
    num(v.createdAt),
    num(v.updatedAt),
    num(v.expiresAt),
    v.afterExpiry,
    v.ttlMs,
    v.refreshIntervalMs,
    v.heldMs,
    v.size,
    v.releasable,
    v.pending === true,
    v.temporaryHold,
    v.pairKey,
    v.waiters?.length ? v.waiters : undefined,
    hayOf(v),
  );
}

const NO_DETAILS: [string, string][] = [];
const NO_METADATA: Record<string, string> = {};

/** The row a window shows, rebuilt from the index's compact copy. */
export function expand(r: Row): IndexRow {
  const s = r.shared;
  const row: IndexRow = {
    store: s.store,
    source: s.source,
    bucket: s.bucket,
    name: r.name,
    format: r.format,
    formatLabel: s.formatLabel,
    generation: r.generation,
    metageneration: r.metageneration,
    createdAt: iso(r.created) ?? '',
    updatedAt: iso(r.updated) ?? '',
    health: r.health,
    heldMs: r.heldMs,
    metadata: NO_METADATA,
    details: NO_DETAILS,
    releasable: r.releasable,
    releaseRule: s.releaseRule,
    releaseNote: s.releaseNote,
    size: r.size,
    version: r.version,
    versionLabel: r.versionLabel,
    terms: s.terms,
  };
  const optional = {
    identity: r.identity,
    host: r.host,
    purpose: r.purpose,
    pid: r.pid,
    expiresAt: iso(r.expires),
    afterExpiry: r.afterExpiry,
    ttlMs: r.ttlMs,
    refreshIntervalMs: r.refreshIntervalMs,
    note: s.note,
    pending: r.pending || undefined,
    temporaryHold: r.temporaryHold,
    pairKey: r.pairKey,
    waiters: r.waiters,
  };
  for (const [k, val] of Object.entries(optional)) if (val !== undefined) (row as Record<string, unknown>)[k] = val;
  return row;
}

/** The health `r` has at `now` with no write: expired or free at its expiry, overdue 1.5 intervals after a refresh. */
export function healthAt(
  r: Pick<Row, 'health' | 'expires' | 'afterExpiry' | 'refreshIntervalMs' | 'updated'>,
  now: number,
): LockHealth {
  const h = r.health;
  if (h !== 'healthy' && h !== 'overdue' && h !== 'long-held') return h;
  if (!Number.isNaN(r.expires) && r.afterExpiry && now >= r.expires) return r.afterExpiry;
  if (h !== 'healthy' || !r.refreshIntervalMs) return h;
  return now >= r.updated + 1.5 * r.refreshIntervalMs ? 'overdue' : h;
}

/** The next time `r`'s health changes with no write, or undefined. */
export function nextTransition(r: Row, now: number): number | undefined {
  const h = r.health;
  if (h !== 'healthy' && h !== 'overdue' && h !== 'long-held') return undefined;
  let next = Infinity;
  if (!Number.isNaN(r.expires) && r.afterExpiry && r.expires > now) next = r.expires;
  if (h === 'healthy' && r.refreshIntervalMs) {
    const overdue = r.updated + 1.5 * r.refreshIntervalMs;
    if (overdue > now && overdue < next) next = overdue;
  }
  return Number.isFinite(next) ? next : undefined;
}
