// What a Redis lock says of its holder (docs/verdict.md), on Redis's clock: a TTL extended between two reads → alive;
// the SETNX/GETSET formats' own expiry time passed → expired by their rule (unknown); a TTL lock seen once → unknown
// with a second read a fraction of its TTL later; no TTL and no expiry time → unknown, nothing in Redis can say.
import type { HolderSign } from '../../verdict/verdict';
import { byRule, RULE_IS_NOT_ABSENCE, seconds as secs, signsAt, type SignMaker } from '../../verdict/sign';
import { EXPIRY, LEFT, LEFT_MS, PAST } from '../../verdict/figures';
import type { ExpiryTrack } from '../../support/seen-since';
import type { RedisReading } from './formats';

/** A one-read TTL lock is read again after half its TTL, within these bounds. */
const SETTLE_MIN_MS = 1000;
const SETTLE_MAX_MS = 30_000;

/** Whole seconds: locks judged alike share one sentence (the index keeps one copy, query/verdict-intern.ts). */
const clamp = (ms: number) => Math.ceil(Math.min(SETTLE_MAX_MS, Math.max(SETTLE_MIN_MS, ms)) / 1000) * 1000;

export function redisSigns(r: RedisReading, pttl: number, track: ExpiryTrack | undefined, now: number): HolderSign[] {
  const sign = signsAt(now);
  if (r.staleAtMs !== undefined) return staleSigns(r.staleAtMs, pttl, now, sign);
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
  // the expiry this read gives (the view's): its figures are marks, shared by every lock read alike (verdict/figures.ts)
  const fact = `PTTL ${LEFT_MS} ms; expiry ${EXPIRY}${
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
        `seen once: its TTL (${LEFT} left) is judged by two reads; a second read after ${secs(clamp(ttl / 2))} settles it`,
        fact,
        from,
        clamp(ttl / 2),
      ),
    ];
  return [
    sign(
      'unknown',
      `its expiry has not moved between reads; it expires in ${LEFT} unless its holder extends it`,
      fact,
      from,
      clamp(pttl + 500),
    ),
  ];
}

/**
 * A value naming its own stale time (the SETNX/GETSET formats). Where the key has no TTL that time is the view's
 * expiry, and its figures are marks (verdict/figures.ts): locks read alike share one set of words.
 */
function staleSigns(staleAt: number, pttl: number, now: number, sign: SignMaker): HolderSign[] {
  const marked = !(pttl > 0);
  const fact = `value names ${marked ? EXPIRY : new Date(staleAt).toISOString()}`;
  if (now >= staleAt)
    return [
      byRule(
        sign(
          'unknown',
          `its value says it went stale ${marked ? PAST : secs(now - staleAt)} ago; by its format's rule the next acquirer takes it over; ${RULE_IS_NOT_ABSENCE}`,
          fact,
          'the value and Redis TIME',
        ),
      ),
    ];
  return [
    sign(
      'unknown',
      `its value says it stays valid for ${marked ? LEFT : secs(staleAt - now)} more unless its holder writes a new time; a read after that settles it`,
      fact,
      'the value and Redis TIME',
      staleAt - now + 1000,
    ),
  ];
}
