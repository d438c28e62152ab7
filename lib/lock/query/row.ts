// A lock as the index keeps it: one small object per lock, times as numbers, the lower-cased text the filter reads,
// and every field that locks of one format share (labels, notes, the store's terms) in one interned object. Rebuilt
// into a LockView-shaped row (`expand`) only for the rows of a window. About 400 bytes a lock instead of ~2 KB.
import type { LockView, LockWaiter } from '../store';
import type { LockFormat, LockHealth } from '../types';

/** What every lock of one format in one source shares. */
interface Shared {
  store: string;
  source: string;
  bucket: string;
  formatLabel: string;
  releaseRule: LockView['releaseRule'];
  releaseNote: string;
  note: string | undefined;
  terms: LockView['terms'];
}

const NONE = Number.NaN;
const iso = (ms: number) => (Number.isNaN(ms) ? undefined : new Date(ms).toISOString());

export class Row {
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
    const r = Object.create(Row.prototype) as Row;
    Object.assign(r, this);
    r.health = health;
    return r;
  }
}

/** The rows of the windows: the lock as the console shows it, without details, metadata or sensitive fields. */
export type IndexRow = Omit<LockView, 'sensitive'> & { sensitive?: undefined };

const shared = new Map<string, Shared>();

function sharedOf(v: LockView): Shared {
  const key = `${v.store}\u0000${v.source}\u0000${v.bucket}\u0000${v.formatLabel}\u0000${v.releaseRule}\u0000${v.releaseNote}\u0000${v.note ?? ''}\u0000${JSON.stringify(v.terms)}`;
  let s = shared.get(key);
  if (!s) {
    if (shared.size > 10_000) shared.clear(); // notes that name each lock: no interning, and no unbounded map
    s = {
      store: v.store,
      source: v.source,
      bucket: v.bucket,
      formatLabel: v.formatLabel,
      releaseRule: v.releaseRule,
      releaseNote: v.releaseNote,
      note: v.note,
      terms: v.terms,
    };
    shared.set(key, s);
  }
  return s;
}

const num = (t: string | undefined) => (t ? Date.parse(t) : NONE);

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
    [v.name, v.identity ?? '', v.purpose ?? '', v.host ?? ''].join('\u0000').toLowerCase(),
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
export function healthAt(r: Row, now: number): LockHealth {
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
