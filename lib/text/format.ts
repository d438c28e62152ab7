// Client-safe formatting of durations, times, versions and the CLI command a lock is released with.
import type { LockInfo } from '../lock/types';

/** A count for people, with thousands separated: 230,000. */
export const formatCount = (n: number): string => n.toLocaleString('en-US');

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
}

export function formatTime(iso: string): string {
  return new Date(iso)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Longer durations than a year are never meant (and lose precision past 2^53 ms). */
const MAX_DURATION_MS = 366 * 86_400_000;

/** "500ms", "30s", "5m", "1h", "2d" in milliseconds; a bare number is seconds. Null when malformed or > 366 days. */
export function parseDurationMs(raw: string): number | null {
  const m = /^(\d{1,15}(?:\.\d{1,9})?)(ms|s|m|h|d)?$/.exec(raw.trim());
  if (!m) return null;
  const ms = Math.round(Number(m[1]) * UNITS[m[2] ?? 's']!);
  return ms <= MAX_DURATION_MS ? ms : null;
}

/** The version of a lock as people read it: the store's own label (generation / metageneration, ETag, …). */
export function versionText(lock: {
  store?: string;
  versionLabel?: string;
  generation: string;
  metageneration: string;
}): string {
  return lock.versionLabel ?? `generation ${lock.generation} / metageneration ${lock.metageneration}`;
}

/** Single-quoted for sh: nothing inside is expanded; a quote is closed, escaped and reopened. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The arguments of the release of exactly this version (the reason left for the operator to write). */
type Releasable = Pick<LockInfo, 'name' | 'version' | 'source' | 'bucket'> & { terms?: { twoLeaders?: string } };

/** The release as the CLI takes it; a release whose old holder is not told needs the flag that accepts it. */
export function releaseArgs(lock: Releasable, reason: string): string[] {
  const args = ['release', lock.source ?? lock.bucket, lock.name, '--version', lock.version ?? '', '--reason', reason];
  return lock.terms?.twoLeaders ? [...args, '--accept-two-leaders'] : args;
}

export function releaseCommand(lock: Releasable): string {
  return ['lockboard', ...releaseArgs(lock, 'WHY')].map(shellQuote).join(' ');
}

/** The label a store gives `createdAt` when its format records no acquire time (StoreTerms.since). */
const SEEN_SINCE = 'Seen since';

/**
 * Whether the lock's format records when it was acquired (else `createdAt` is only when it was first seen): from its
 * terms on a whole lock, from `seenOnly` on a window's row.
 */
export function recordsAcquireTime(lock: { terms?: { since: string }; seenOnly?: true }): boolean {
  return lock.terms?.since !== SEEN_SINCE && !lock.seenOnly;
}

/** "held 8s", or "seen 8s" where only the console's first sight is known (the CLI: "not recorded"). */
export function heldOrSeen(lock: { terms?: { since: string }; seenOnly?: true }, ms: number): string {
  return `${recordsAcquireTime(lock) ? 'held' : 'seen'} ${formatDuration(ms)}`;
}
