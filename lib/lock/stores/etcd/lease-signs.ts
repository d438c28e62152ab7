// What a holder key's lease says of its holder (stores.md "Verdict"), from LeaseTimeToLive read once per distinct
// lease per listing pass and compared with the previous pass. Each read implies when the lease was last granted or
// kept alive (now − (granted − TTL)); that moment moving forward between two reads is a keep-alive → alive. A TTL only
// falling across more than a keep-alive interval (clients renew at a third of the TTL) → unknown until it runs out,
// when etcd deletes the key (free). Seen once → unknown, with the wait that settles it. etcd keeps no wall-clock
// time: every time here is the console's clock. The TTL left is a mark (verdict/figures.ts: LEFT, from the view's
// expiresAt, the read's time plus the TTL), so an open page counts it down; the lease's id names each holder's own.
import type { HolderSign } from '../../verdict/verdict';
import { LEFT } from '../../verdict/figures';
import { seconds as secs } from '../../verdict/sign';
import type { LeaseInfo } from './view';

/** Whole-second TTLs: an implied renewal must move by more than this to count as a keep-alive. */
const ROUNDING_MS = 1_500;

interface Track {
  firstAt: number;
  /** The implied renewal a keep-alive is measured from: the first read's, then the last keep-alive's. */
  sinceImplied: number;
  lastImplied: number;
  /** When a keep-alive was last seen between two reads (console clock). */
  keptAliveAt?: number;
}

/** The leases seen by one store, across its listing passes. */
export class LeaseWatch {
  private readonly tracks = new Map<string, Track>();

  /** Records a read of lease `id` at `now` (console clock). */
  observe(id: string, lease: LeaseInfo, now: number): Track {
    const implied = now - (lease.granted - lease.ttl) * 1000;
    const t = this.tracks.get(id) ?? { firstAt: now, sinceImplied: implied, lastImplied: implied };
    // without a renewal the implied moment stays within a second (whole-second TTLs); a keep-alive moves it on
    if (implied > t.sinceImplied + ROUNDING_MS) {
      t.keptAliveAt = now;
      t.sinceImplied = implied;
    }
    t.lastImplied = Math.max(t.lastImplied, implied);
    this.tracks.set(id, t);
    return t;
  }

  forgetExcept(ids: Set<string>): void {
    for (const id of this.tracks.keys()) if (!ids.has(id)) this.tracks.delete(id);
  }
}

/** The sign of a holder key's lease, at `now` (console clock), after `observe`. */
export function leaseSign(hex: string, lease: LeaseInfo | null, t: Track | undefined, now: number): HolderSign {
  const at = new Date(now).toISOString();
  const from = `LeaseTimeToLive(${hex})`;
  /** `settleMs`, or 'expiry': a read when the lease runs out settles it. */
  const sign = (points: HolderSign['points'], says: string, fact: string, settle?: number | 'expiry'): HolderSign => ({
    points,
    says,
    fact,
    from,
    at,
    ...(settle === 'expiry' ? { settleAfterExpiryMs: 0 } : settle ? { settleMs: Math.round(settle) } : {}),
  });
  if (!lease || !t)
    return sign(
      'unknown',
      'the holder key has no lease: it stays until deleted, and nothing in etcd says whether its holder is still there',
      'no lease',
    );
  const fact = `TTL ${LEFT} of ${lease.granted} s granted`;
  // the lease is etcd's own record of the holder's session: run out, the session is over on every member
  if (lease.ttl <= 0)
    return { ...sign('gone', `lease ${hex} has run out: etcd deletes the holder key`, fact), basis: 'absence' };
  const interval = (lease.granted * 1000) / 3 + ROUNDING_MS;
  if (t.keptAliveAt !== undefined && now - t.lastImplied <= interval + ROUNDING_MS)
    return sign(
      'alive',
      `lease ${hex} was kept alive between two reads (its TTL reset to ${lease.ttl} s of ${lease.granted} s)`,
      `${fact}; a keep-alive seen ${secs(now - t.keptAliveAt)} ago`,
    );
  if (t.keptAliveAt !== undefined)
    return sign(
      'unknown',
      `lease ${hex}'s keep-alive is overdue (last renewed ${secs(now - t.lastImplied)} ago); etcd deletes the holder key when it runs out in ${LEFT}`,
      fact,
      'expiry',
    );
  const watched = now - t.firstAt;
  if (watched < interval)
    return sign(
      'unknown',
      `lease ${hex} seen ${watched < 1000 ? 'once' : `for ${secs(watched)} only`} (TTL ${LEFT} of ${lease.granted} s): a second read after one keep-alive interval settles whether it is kept alive`,
      fact,
      interval - watched,
    );
  return sign(
    'unknown',
    `lease ${hex}'s TTL only fell over ${secs(watched)} (no keep-alive seen); etcd deletes the holder key when it runs out in ${LEFT}`,
    fact,
    'expiry',
  );
}
