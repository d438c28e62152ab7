// PostgreSQL's words: an advisory lock lives as long as its holder's session; a lock table's row as its library says.
// A holder's current query can carry secrets and personal data in its literals: viewers see it masked.
import type { StoreTerms } from '../../store';
import { ADVISORY_WORDS, ROW_WORDS } from './health-words';
import type { TableKind } from './tables';

const TRAIL =
  'Force-releases are recorded in the lockboard_audit table; Lockboard’s own PostgreSQL locks record their ' +
  'releases in lockboard_released. Other tools record nothing.';

export const ADVISORY_TERMS: StoreTerms = {
  storeLabel: 'PostgreSQL',
  versionName: 'session (pid + backend start)',
  since: 'Seen since',
  liveness: 'Held while the holder’s session is open: it ends with the session, never by a timeout.',
  effect:
    'Clearing terminates the holder’s whole session at once (pg_terminate_backend): its open transaction rolls back and every other lock it holds is freed.',
  rule: 'PostgreSQL rule: one pg_terminate_backend guarded by the same pid, the same backend start (to the microsecond) and the lock still granted to it: a reused pid is never signalled.',
  trail: TRAIL,
  confirmByName: true,
  health: ADVISORY_WORDS,
};

export function rowTerms(o: { kind: TableKind; recordsTime: boolean; liveness: string }): StoreTerms {
  return {
    storeLabel: 'PostgreSQL',
    versionName: 'row version',
    since: o.recordsTime ? 'Held since' : 'Seen since',
    liveness: o.liveness,
    effect:
      'Clearing runs one conditional statement on exactly the row version you saw; the holder finds out only when it next touches its row.',
    rule: 'PostgreSQL rule: one DELETE (or UPDATE) whose WHERE names exactly the row version you see here: a successor’s row is never touched.',
    trail: TRAIL,
    health: ROW_WORDS[o.kind],
  };
}

export { maskQuery } from './mask';
