// When a store first saw each (lock, version): "seen since" where a format records no acquire time. Two generations:
// a listing pass starts a new one, a sighting stamps its entry with it, and an entry neither of the last two passes
// stamped is forgotten; a pass interleaved with another (the console's and a direct listing) never loses what either
// read. Kept in typed arrays by a 64-bit hash of the key: 40–80 bytes a lock, no string kept and no garbage per
// pass (a map of the keys held ~150 bytes a lock and a copy of every name, rebuilt each pass, at a million locks).
// Two keys that share a 64-bit hash would share a time: at a million keys the odds are about 1 in 3.7e7.
const EMPTY = 0;

let h1 = 0;
let h2 = 0;

/** Two independent 32-bit hashes of `s` (FNV-1a and a multiply-xorshift), into h1 and h2. */
function hash(s: string): void {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  h1 = a >>> 0;
  h2 = (b ^ (b >>> 13)) >>> 0;
}

/** One read of a TTL lock's expiry against the last ones (Redis: an expiry moving later is a live refresher). */
export interface ExpiryTrack {
  /** The latest expiry read (the store's clock, ms). */
  expiresAt: number;
  /** When the expiry was last seen to move later, and by how much. */
  extendedAt?: number;
  extendedByMs?: number;
  /** Reads of this entry so far (saturates at 255). */
  reads: number;
}

/** An expiry computed from a clock read plus a TTL may read later than it is by the time between the two. */
const EXTENDED_BY_MS = 500;

/** The columns an expiry track needs, kept beside the entries only by stores that track expiries. */
interface ExpiryColumns {
  exp: Float64Array;
  extAt: Float64Array;
  extBy: Uint32Array;
  reads: Uint8Array;
}

const expiryColumns = (cap: number): ExpiryColumns => ({
  exp: new Float64Array(cap),
  extAt: new Float64Array(cap),
  extBy: new Uint32Array(cap),
  reads: new Uint8Array(cap),
});

export class SeenSince {
  private cap = 0;
  private hi = new Uint32Array(0);
  private lo = new Uint32Array(0);
  private at = new Float64Array(0);
  /** The pass that last saw the entry; 0: an empty slot. */
  private gen = new Uint32Array(0);
  private used = 0;
  private pass = 1;
  /** The slot of the entry `since` last found or made. */
  private slot = -1;
  private ext: ExpiryColumns | undefined;

  /** `tracksExpiries`: also keep each entry's expiry between reads (`expiry`), 21 bytes a slot more. */
  constructor(tracksExpiries = false) {
    if (tracksExpiries) this.ext = expiryColumns(0);
    this.resize(1_024);
  }

  /** The expiry of the entry `since` was last asked about, read at `now`: with any move later recorded. */
  expiry(expiresAt: number, now: number): ExpiryTrack {
    const e = this.ext!;
    const i = this.slot;
    const reads = Math.min(255, e.reads[i]! + 1);
    e.reads[i] = reads;
    if (reads > 1 && expiresAt > e.exp[i]! + EXTENDED_BY_MS) {
      e.extAt[i] = now;
      e.extBy[i] = Math.min(0xffffffff, expiresAt - e.exp[i]!);
    }
    e.exp[i] = reads > 1 ? Math.max(e.exp[i]!, expiresAt) : expiresAt;
    const extended = e.extAt[i]! > 0;
    return {
      expiresAt: e.exp[i]!,
      reads,
      ...(extended ? { extendedAt: e.extAt[i]!, extendedByMs: e.extBy[i]! } : {}),
    };
  }

  /** A listing pass starts. */
  newPass(): void {
    this.pass++;
  }

  /** When `key` was first seen, `now` if never: recorded as seen in this generation. */
  since(key: string, now: number): number {
    hash(key);
    const h = h1;
    const l = h2;
    const mask = this.cap - 1;
    let reuse = -1;
    for (let i = (h ^ l) & mask; ; i = (i + 1) & mask) {
      const g = this.gen[i]!;
      if (g === EMPTY) {
        if (reuse < 0) {
          reuse = i;
          this.used++;
        }
        break;
      }
      const alive = g >= this.pass - 1;
      if (this.hi[i] === h && this.lo[i] === l) {
        if (alive) {
          this.gen[i] = this.pass;
          this.slot = i;
          return this.at[i]!;
        }
        reuse = i; // forgotten: this sighting starts again
        break;
      }
      if (!alive && reuse < 0) reuse = i;
    }
    this.hi[reuse] = h;
    this.lo[reuse] = l;
    this.at[reuse] = now;
    this.gen[reuse] = this.pass;
    this.clearExpiry(reuse);
    this.slot = reuse;
    if (this.used > this.cap * 0.7) this.rehash();
    return now;
  }

  private clearExpiry(i: number): void {
    if (!this.ext) return;
    this.ext.exp[i] = 0;
    this.ext.extAt[i] = 0;
    this.ext.extBy[i] = 0;
    this.ext.reads[i] = 0;
  }

  /** Entries either of the last two passes saw. */
  get size(): number {
    let n = 0;
    for (let i = 0; i < this.cap; i++) if (this.gen[i]! >= this.pass - 1) n++;
    return n;
  }

  /** Forgotten entries dropped; the table sized for at least twice what is left. */
  private rehash(): void {
    const { hi, lo, at, gen, cap, ext, slot } = this;
    let moved = -1;
    const live = this.size;
    let next = 1_024;
    while (next < live * 2) next *= 2;
    this.resize(next);
    const mask = next - 1;
    for (let j = 0; j < cap; j++) {
      if (gen[j]! < this.pass - 1) continue;
      let i = (hi[j]! ^ lo[j]!) & mask;
      while (this.gen[i] !== EMPTY) i = (i + 1) & mask;
      this.hi[i] = hi[j]!;
      this.lo[i] = lo[j]!;
      this.at[i] = at[j]!;
      this.gen[i] = gen[j]!;
      if (ext) copyExpiry(ext, j, this.ext!, i);
      if (slot === j) moved = i;
      this.used++;
    }
    this.slot = moved;
  }

  private resize(cap: number): void {
    this.cap = cap;
    this.hi = new Uint32Array(cap);
    this.lo = new Uint32Array(cap);
    this.at = new Float64Array(cap);
    this.gen = new Uint32Array(cap);
    if (this.ext) this.ext = expiryColumns(cap);
    this.used = 0;
  }
}

function copyExpiry(from: ExpiryColumns, j: number, to: ExpiryColumns, i: number): void {
  to.exp[i] = from.exp[j]!;
  to.extAt[i] = from.extAt[j]!;
  to.extBy[i] = from.extBy[j]!;
  to.reads[i] = from.reads[j]!;
}
