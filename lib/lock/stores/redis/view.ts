// How a Redis lock is shown: health on Redis's TIME, "seen since" where the format records no acquire time, the TTL
// only where the key has one, in Redis's own words.
import type { SeenSince } from '../../support/seen-since';
import type { LockView } from '../../store';
import type { LockHealth } from '../../types';
import { joinNotes } from '../../support/untrusted';
import { versionOf, type RedisKeyRead, type RedisReading } from './formats';
import { redisTerms } from './words';
import { redisSigns } from './signs';

/** A Redis lock as every store shows it; `firstSeen` keeps "seen since" for formats that record no time. */
export function redisView(
  r: RedisReading,
  k: RedisKeyRead,
  now: number,
  o: { source: string; firstSeen: SeenSince; longHeldMs?: number },
): LockView {
  const version = versionFor(r);
  const firstSeen = o.firstSeen.since(`${r.name}\u0000${r.versionOf}`, now);
  const track = k.pttl > 0 ? o.firstSeen.expiry(now + k.pttl, now) : undefined;
  const since = r.acquiredMs ?? firstSeen;
  const expiresAt = k.pttl > 0 ? now + k.pttl : r.staleAtMs;
  const health = judge(now, since, k.pttl, r, o.longHeldMs);
  return {
    store: 'redis',
    source: o.source,
    bucket: o.source,
    name: r.name,
    format: r.format as LockView['format'],
    formatLabel: r.label,
    ...(r.identity ? { identity: r.identity } : {}),
    generation: r.token ?? '0',
    metageneration: '0',
    createdAt: new Date(since).toISOString(),
    updatedAt: new Date(since).toISOString(),
    heldMs: Math.max(0, now - since),
    ...(expiresAt !== undefined
      ? { expiresAt: new Date(expiresAt).toISOString(), afterExpiry: 'expired' as const }
      : {}),
    ...(r.ttlMs ? { ttlMs: r.ttlMs } : {}),
    ...(r.refreshMs ? { refreshIntervalMs: r.refreshMs } : {}),
    health,
    signs: redisSigns(r, k.pttl, track, now),
    metadata: {},
    details: [
      ...r.details,
      ['Redis TTL', k.pttl > 0 ? `${Math.round(k.pttl / 100) / 10} s` : 'none (never expires by itself)'],
    ],
    releasable: true,
    releaseRule: 'delete',
    releaseNote: r.releaseNote,
    ...noteOf(r),
    size: (k.value ?? '').length,
    version,
    versionLabel: `value hash ${version.slice(0, 8)}`,
    terms: redisTerms(r, k.pttl > 0),
  };
}

function versionFor(r: RedisReading): string {
  return versionOf(r.versionOf);
}

function judge(now: number, since: number, pttl: number, r: RedisReading, longHeldMs: number | undefined): LockHealth {
  if (r.staleAtMs !== undefined)
    return now >= r.staleAtMs
      ? 'expired'
      : longHeldMs !== undefined && now - since > longHeldMs
        ? 'long-held'
        : 'healthy';
  if (longHeldMs !== undefined && now - since > longHeldMs) return 'long-held';
  if (pttl < 0) return 'unknown'; // no TTL and not held past the threshold: liveness cannot be judged
  if (r.ttlMs && r.refreshMs && r.ttlMs - pttl > 1.5 * r.refreshMs) return 'overdue';
  return 'healthy';
}

function noteOf(r: RedisReading): { note?: string } {
  const owner = r.identity
    ? undefined
    : r.format === 'lockboard'
      ? 'The value names no owner.'
      : 'The owner is not recorded by this format (a random token).';
  const note = joinNotes(r.note, owner);
  return note ? { note } : {};
}
