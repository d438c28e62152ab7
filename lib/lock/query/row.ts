// A lock as the index keeps it: one small object per lock, times as numbers, the lower-cased text the filter reads,
// and every field that locks of one format share (format, labels, notes, the store's terms) in one interned object.
// What few locks carry (host, purpose, pid, TTL, refresh interval, pair key, waiters) sits in a second object only
// those locks have, and three yes/no fields share one number. 16 fields instead of 28: at a million locks, ~90 MB
// less. Rebuilt into a LockView-shaped row (`expand`, row-expand.ts) only for the rows of a window.
import type { LockView, LockWaiter } from '../store';
import type { LockHealth } from '../types';
import { internVerdict, type IndexVerdict } from './verdict-intern';
import { RowVerdict } from './row-verdict';
import { sharedOf, type Shared } from './shared';

export { expand, type IndexRow } from './row-expand';

const NONE = Number.NaN;
export const num = (t: string | undefined) => (t ? Date.parse(t) : NONE);

/** The fields few locks carry. */
interface RowMore {
  host?: string;
  purpose?: string;
  pid?: string;
  metageneration?: string;
  ttlMs?: number;
  refreshIntervalMs?: number;
  pairKey?: string;
  waiters?: LockWaiter[];
}

const RELEASABLE = 1;
const PENDING = 2;
const HOLD_SET = 4;
const HOLD = 8;

export class Row {
  /** The index's last listing pass that saw this lock (lock-index.ts). */
  pass = 0;

  constructor(
    readonly name: string,
    readonly shared: Shared,
    public health: LockHealth,
    readonly identity: string | undefined,
    readonly version: string,
    readonly versionLabel: string,
    readonly generation: string,
    readonly created: number,
    readonly updated: number,
    /** NaN: no expiry. */
    readonly expires: number,
    readonly heldMs: number,
    readonly size: number,
    /** releasable, pending and temporaryHold, as bits */
    readonly flags: number,
    /** name, owner, purpose and host, lower-cased, for the text filter. */
    readonly hay: string,
    readonly more: RowMore | undefined,
    /**
     * The holder's verdict as the index keeps it (shared by locks judged alike, verdict-intern.ts), undefined for what
     * is not judged (free locks, data). Replaced in place when a pass reads the same words again (lock-index.ts).
     */
    public judged: IndexVerdict | undefined,
  ) {}

  /** The verdict with its words of the moment (rendered only when read: row-verdict.ts). */
  get verdict(): RowVerdict | undefined {
    return this.judged && new RowVerdict(this.judged, this);
  }

  get format(): LockView['format'] {
    return this.shared.format;
  }
  get afterExpiry(): LockView['afterExpiry'] {
    return this.shared.afterExpiry;
  }
  get releasable(): boolean {
    return (this.flags & RELEASABLE) !== 0;
  }
  get pending(): boolean {
    return (this.flags & PENDING) !== 0;
  }
  get temporaryHold(): boolean | undefined {
    return this.flags & HOLD_SET ? (this.flags & HOLD) !== 0 : undefined;
  }
  get host(): string | undefined {
    return this.more?.host;
  }
  get purpose(): string | undefined {
    return this.more?.purpose;
  }
  get pid(): string | undefined {
    return this.more?.pid;
  }
  get metageneration(): string {
    return this.more?.metageneration ?? '0';
  }
  get ttlMs(): number | undefined {
    return this.more?.ttlMs;
  }
  get refreshIntervalMs(): number | undefined {
    return this.more?.refreshIntervalMs;
  }
  get pairKey(): string | undefined {
    return this.more?.pairKey;
  }
  get waiters(): LockWaiter[] | undefined {
    return this.more?.waiters;
  }

  withHealth(health: LockHealth): Row {
    // through the constructor: every row keeps one shape (the query's loop stays monomorphic)
    const r = new Row(
      this.name,
      this.shared,
      health,
      this.identity,
      this.version,
      this.versionLabel,
      this.generation,
      this.created,
      this.updated,
      this.expires,
      this.heldMs,
      this.size,
      this.flags,
      this.hay,
      this.more,
      this.judged,
    );
    r.pass = this.pass;
    return r;
  }
}

/** The filter's text: name, owner, purpose and host, lower-cased; the name itself (no copy) when that is all of it. */
function hayOf(v: LockView, name: string): string {
  const rest = [v.identity, v.purpose, v.host].filter(Boolean);
  if (rest.length) return [name, ...rest].join('\u0000').toLowerCase();
  const lower = name.toLowerCase();
  return lower === name ? name : lower;
}

function moreOf(v: LockView): RowMore | undefined {
  let more: RowMore | undefined;
  const set = <K extends keyof RowMore>(k: K, value: RowMore[K] | undefined) => {
    if (value !== undefined) (more ??= {})[k] = value;
  };
  set('host', v.host);
  set('purpose', v.purpose);
  set('pid', v.pid);
  set('metageneration', v.metageneration === '0' ? undefined : v.metageneration);
  set('ttlMs', v.ttlMs);
  set('refreshIntervalMs', v.refreshIntervalMs);
  set('pairKey', v.pairKey);
  set('waiters', v.waiters?.length ? v.waiters : undefined);
  return more;
}

/** What the index already knows of a lock it makes a row of (lock-index.ts). */
interface Known {
  /** The index's copy of the view's verdict (undefined: not judged; with no `Known` at all, it is read now). */
  judged?: IndexVerdict;
  /** The expiry the row keeps (a read's wobble aside). */
  expires?: number;
  /** The row it replaces: its name string is kept (the index's map holds it as the key; a new one would be a copy). */
  before?: Row;
}

/** The index's row of `v`. */
export function compact(v: LockView, k: Known = { judged: internVerdict(v, Date.now()) }): Row {
  const name = k.before?.name === v.name ? k.before.name : v.name;
  const flags =
    (v.releasable ? RELEASABLE : 0) |
    (v.pending === true ? PENDING : 0) |
    (v.temporaryHold === undefined ? 0 : HOLD_SET | (v.temporaryHold ? HOLD : 0));
  return new Row(
    name,
    sharedOf(v),
    v.health,
    v.identity,
    v.version,
    v.versionLabel,
    v.generation,
    num(v.createdAt),
    num(v.updatedAt),
    k.expires ?? num(v.expiresAt),
    v.heldMs,
    v.size,
    flags,
    hayOf(v, name),
    moreOf(v),
    k.judged,
  );
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
