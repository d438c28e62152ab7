// What a Redis lock says of its holder (stores.md "Verdict"), on Redis's clock: a TTL extended between two reads →
// alive; the SETNX/GETSET formats' own expiry time passed → expired by their rule (unknown); a TTL lock seen once → unknown with
// a second read a fraction of its TTL later; no TTL and no expiry time → unknown, nothing in Redis can say.
import type { HolderSign } from '../../verdict/verdict';
import { byRule, RULE_IS_NOT_ABSENCE, seconds as secs, signsAt, type SignMaker } from '../../verdict/sign';
import type { ExpiryTrack } from '../../support/seen-since';
import type { RedisReading } from './formats';

/** A one-read TTL lock is read again after half its TTL, within these bounds. */
const SETTLE_MIN_MS = 1000;
const SETTLE_MAX_MS = 30_000;

/** Whole seconds: locks judged alike share one sentence (the index keeps one copy, query/verdict-intern.ts). */
const clamp = (ms: number) => Math.ceil(Math.min(SETTLE_MAX_MS, Math.max(SETTLE_MIN_MS, ms)) / 1000) * 1000;

export function redisSigns(r: RedisReading, pttl: number, track: ExpiryTrack | undefined, now: number): HolderSign[] {
  const sign = signsAt(now);
  if (r.staleAtMs !== undefined) {
    const fact = `value names ${new Date(r.staleAtMs).toISOString()}`;
    if (now >= r.staleAtMs)
      return [
        byRule(
          sign(
            'unknown',
            `its value says it went stale ${secs(now - r.staleAtMs)} ago; by its format's rule the next acquirer takes it over; ${RULE_IS_NOT_ABSENCE}`,
            fact,
            'the value and Redis TIME',
          ),
        ),
      ];
    const settle = r.staleAtMs - now + 1000;
    return [
      sign(
        'unknown',
        `its value says it stays valid for ${secs(r.staleAtMs - now)} more unless its holder writes a new time; a read after that settles it`,
        fact,
        'the value and Redis TIME',
        settle,
      ),
    ];
  }
  if (pttl < 0 || !track)
    return [
      sign(
        'unknown',
        `no TTL and no refresh ever seen: nothing in Redis shows whether its holder${r.identity ? ` (${r.identity})` : ''} still runs; its owner settles it`,
        'PTTL -1 (no expiry)',
        'PTTL',
      ),
    ];
  return ttlSigns(r, pttl, track, now, sign);
}

function ttlSigns(r: RedisReading, pttl: number, t: ExpiryTrack, now: number, sign: SignMaker): HolderSign[] {
  const ttl = r.ttlMs ?? pttl;
  const from = t.reads > 1 ? 'two reads of PTTL' : 'PTTL';
  const fact = `PTTL ${pttl} ms; expiry ${new Date(t.expiresAt).toISOString()}${
    t.extendedAt !== undefined
      ? `, moved ${secs(t.extendedByMs!)} later at ${new Date(t.extendedAt).toISOString()}`
      : ''
  }`;
  if (t.extendedAt !== undefined && now - t.extendedAt <= Math.max(ttl, pttl))
    return [
      sign(
        'alive',
        `its expiry moved ${secs(t.extendedByMs!)} later between two reads: its holder extends it`,
        fact,
        from,
      ),
    ];
  if (t.reads <= 1)
    return [
      sign(
        'unknown',
        `seen once: its TTL (${secs(pttl)} left) is judged by two reads; a second read after ${secs(clamp(ttl / 2))} settles it`,
        fact,
        from,
        clamp(ttl / 2),
      ),
    ];
  return [
    sign(
      'unknown',
      `its expiry has not moved between reads; it expires in ${secs(pttl)} unless its holder extends it`,
      fact,
      from,
      clamp(pttl + 500),
    ),
  ];
}
