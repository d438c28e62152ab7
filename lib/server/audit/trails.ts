// The audit trails behind the configured sources: sources sharing one trail (one bucket's audit prefix, one Redis, one
// database, one DynamoDB audit table) read it once, each event counted once and named with its one source; a trail
// that fails or does not answer in time is reported unreachable in its store's words, the others still read.
import 'server-only';
import { processWide } from '../process/process-wide';
import type { MemoryOnlyTrail, TrailFault } from '@/lib/console/churn/summary';
import type { AuditRecord } from '@/lib/lock/audit/record';
import { storeUnavailable } from '@/lib/lock/store-errors';
import { definitionByKind } from '@/lib/lock/stores';
import { storeFor } from '../stores';
import { sourceContains, type Source } from '../sources';

/** An audit event with the source it belongs to (`source`: the source's id, `bucket`: its container as requests name it). */
export type SourcedAuditRecord = AuditRecord & { bucket: string; source: string };

export interface Trail {
  key: string;
  sources: Source[];
}

/** A trail slower than this is reported unreachable, so one stopped server never stalls the others' answer. */
const TRAIL_TIMEOUT_MS = 3_000;
/** After a failure the trail is not asked again for this long: a stopped server costs one timeout, not one a poll. */
const TRAIL_RETRY_MS = 10_000;
const lastGood = processWide('trailLastGood', () => new Map<string, number>());
const down = processWide('trailsDown', () => new Map<string, { at: number; error: unknown }>());

export const trailKey = (s: Source): string => s.trail ?? s.bucketId;

/** The trails of `chosen`, each once, with every configured source it serves (for naming each event's source). */
export function trailsOf(chosen: Source[], configured: Source[]): Trail[] {
  const keys = new Set(chosen.map(trailKey));
  return [...keys].map((key) => ({ key, sources: configured.filter((s) => trailKey(s) === key) }));
}

/** The one source an event of `trail` belongs to: its container's, the most specific containing its lock. */
function sourceOfEvent(trail: Trail, e: AuditRecord): Source | undefined {
  const candidates = trail.sources.filter(
    (s) => (e.container === undefined || e.container === s.bucket) && sourceContains(s, e.lock),
  );
  let best: Source | undefined;
  for (const s of candidates) if (!best || s.prefix.length > best.prefix.length) best = s;
  return best;
}

/** Names each event's source; drops events of locks outside every configured source. */
export function attribute(trail: Trail, events: AuditRecord[]): SourcedAuditRecord[] {
  const out: SourcedAuditRecord[] = [];
  for (const e of events) {
    const s = sourceOfEvent(trail, e);
    if (s) out.push({ ...e, bucket: s.bucketId, source: s.id });
  }
  return out;
}

/** Reads through the trail's store, within TRAIL_TIMEOUT_MS. */
export async function readTrailWindow(trail: Trail, from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
  const first = trail.sources[0]!;
  const failed = down.get(trail.key);
  if (failed && Date.now() - failed.at < TRAIL_RETRY_MS) throw failed.error;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const label = definitionByKind(first.store).label;
      reject(new Error(`${label} at ${first.bucketId} did not answer within ${TRAIL_TIMEOUT_MS / 1000} s`));
    }, TRAIL_TIMEOUT_MS);
  });
  try {
    return await Promise.race([storeFor(first).then((store) => store.readAudit(from, to, lock)), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every slice of a trail read: its last good read is now. */
export function markGood(trail: Trail): void {
  lastGood.set(trail.key, Date.now());
  if (down.delete(trail.key)) console.warn(`[lockboard] audit trail of ${names(trail)} readable again`);
}

const names = (trail: Trail) => trail.sources.map((s) => s.id).join(', ');

/** The trail could not be read: remembered (and logged once, when it goes down), described for the page. */
export function faultOf(trail: Trail, err: unknown): TrailFault {
  const previous = down.get(trail.key);
  if (!previous || previous.error !== err) down.set(trail.key, { at: Date.now(), error: err });
  if (!previous)
    console.warn(`[lockboard] audit trail of ${names(trail)} unreadable: ${(err as Error)?.message ?? err}`);
  const at = lastGood.get(trail.key);
  const first = trail.sources[0]!;
  return {
    sources: trail.sources.map((s) => s.id),
    store: definitionByKind(first.store).label,
    message: storeUnavailable(err) ?? (err as Error)?.message ?? String(err),
    lastGoodAt: at === undefined ? null : new Date(at).toISOString(),
  };
}

/** How long a trail's answer to "kept in memory only?" is reused: a server's persistence rarely changes. */
const MEMORY_ONLY_MS = 60_000;
const memoryOnlyAsked = processWide(
  'trailMemoryOnly',
  () => new Map<string, { at: number; value: Promise<string | null> }>(),
);

/**
 * The trail's store's own word that it keeps the trail in memory only (the optional `memoryOnlyTrail`), or null: a
 * store without the capability, one that does not say, or one that does not answer in time claims nothing.
 */
export async function memoryOnlyOf(trail: Trail): Promise<MemoryOnlyTrail | null> {
  const first = trail.sources[0]!;
  const hit = memoryOnlyAsked.get(trail.key);
  let value = hit && Date.now() - hit.at < MEMORY_ONLY_MS ? hit.value : undefined;
  if (!value) {
    value = storeFor(first).then((store) => (store.memoryOnlyTrail ? store.memoryOnlyTrail() : null));
    memoryOnlyAsked.set(trail.key, { at: Date.now(), value });
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), TRAIL_TIMEOUT_MS)));
  const message = await Promise.race([value.catch(() => null), late]).finally(() => clearTimeout(timer));
  if (!message) return null;
  return { sources: trail.sources.map((s) => s.id), store: definitionByKind(first.store).label, message };
}
