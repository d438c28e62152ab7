// A window's row rebuilt from the index's compact copy (row.ts): the lock as the console shows it, without details,
// metadata or sensitive fields (the lock page and the release dialog read the whole lock).
import type { LockView } from '../store';
import type { Row } from './row';

/** The rows of the windows. */
export type IndexRow = Omit<LockView, 'sensitive'> & { sensitive?: undefined };

const iso = (ms: number) => (Number.isNaN(ms) ? undefined : new Date(ms).toISOString());
const NO_DETAILS: [string, string][] = [];
const NO_METADATA: Record<string, string> = {};

/**
 * The row as a view; with `marks`, a window's row for the browser: its sentence's moving figures also as marks
 * (`sentenceMarks`), which the page renders from the row's times on every tick (verdict/figures.ts `sentenceAt`).
 */
export function expand(r: Row, marks = false): IndexRow {
  const s = r.shared;
  const verdict = r.verdict;
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
    verdict: verdict?.verdict,
    sentence: verdict?.sentence,
    sentenceMarks: marks ? verdict?.sentenceMarks : undefined,
    evidence: verdict?.evidence,
  };
  for (const [k, val] of Object.entries(optional)) if (val !== undefined) (row as Record<string, unknown>)[k] = val;
  return row;
}
