// What exists under a name but is no lock (a cache key, a data row, a state file), in the one shape every store
// answers: shown with the store's words, never released.
import type { LockView, StoreKind, StoreTerms } from './store';

/** What exists under a name but is no lock (a cache key, a data row): shown, never released. */
export function notALockView(o: {
  kind: StoreKind;
  source: string;
  name: string;
  what: string;
  nowMs: number;
  terms: StoreTerms;
  size?: number;
}): LockView {
  const at = new Date(o.nowMs).toISOString();
  return {
    store: o.kind,
    source: o.source,
    bucket: o.source,
    name: o.name,
    format: 'other',
    formatLabel: 'Not a lock',
    generation: '0',
    metageneration: '0',
    createdAt: at,
    updatedAt: at,
    health: 'unknown',
    heldMs: 0,
    metadata: {},
    details: [],
    releasable: false,
    releaseRule: 'none',
    releaseNote: 'Not a lock: Lockboard never deletes it.',
    note: `${o.what}: not a lock Lockboard recognises, so it is never released.`,
    size: o.size ?? 0,
    version: '',
    versionLabel: '—',
    terms: o.terms,
  };
}
