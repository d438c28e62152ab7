// PostgreSQL's words and truth table, per format: an advisory lock lives exactly as long as its holder's session; a
// lock row is judged by its holder's session (Lockboard's table, the seed's unique-index table), by a time it names
// (ShedLock, Laravel), by a heartbeat (db-scheduler), or not at all (Liquibase).
import type { StoreTerms } from '../../store';
import type { HealthWords } from '../../types';
import type { TableKind } from './tables';
import { TOOL_ROW_WORDS } from '../sql/tool-tables';

const ADVISORY_WORDS: HealthWords = {
  meaning: {
    healthy: 'Held by an open session: the lock lasts exactly as long as that session.',
    overdue: 'Its session is idle inside an open transaction: it holds the lock while doing nothing.',
    'long-held': 'Held by an open session for longer than the configured limit.',
  },
  changes: {
    healthy: 'It ends when its session unlocks it or ends; it never times out.',
    overdue: 'Healthy again when the session finishes its transaction; it ends when the session unlocks it or ends.',
    'long-held': 'It ends when its session unlocks it or ends; it never times out.',
  },
  advice: {
    healthy: 'Only if you know its work must stop: its session is open.',
    overdue:
      'Caution: the session is open, only idle; its client may come back to it. Clearing ends the whole session.',
    'long-held': 'Only if you know its job is stuck: its session is open.',
  },
};

const SESSION_ROW: HealthWords = {
  meaning: {
    healthy: 'The holder’s session (its pid, started before the row) is connected.',
    expired: 'Disconnected: the holder’s session is gone and its row stayed behind.',
    'long-held': 'Held by a connected session for longer than the configured limit.',
  },
  changes: {
    healthy: 'Becomes disconnected when the holder’s session ends; the row stays until it is taken over.',
    'long-held': 'Becomes disconnected when the holder’s session ends; the row stays until it is taken over.',
    expired: 'It stays until the next acquirer moves the row aside or an operator clears it.',
  },
  advice: {
    healthy: 'Only if you know its job must stop: its session is connected.',
    expired: 'Yes: the holder’s session is gone.',
    'long-held': 'Only if you know its job is stuck: its session is connected.',
  },
};

const DB_SCHEDULER: HealthWords = {
  meaning: {
    healthy: 'Its heartbeat is recent: the scheduler that picked it is running.',
    expired: 'No heartbeat for 30 minutes: the scheduler that picked it is gone.',
    'long-held': 'Its heartbeat is recent, but it has been picked for longer than the configured limit.',
  },
  changes: {
    healthy: 'Becomes dead 30 minutes after its last heartbeat.',
    expired: 'It stays picked until a scheduler’s dead-execution check or an operator clears it.',
  },
  advice: {
    healthy: 'Only if you know its execution must stop: its scheduler is heartbeating.',
    expired: 'Yes: its scheduler stopped heartbeating.',
    'long-held': 'Only if you know its execution is stuck: its scheduler is heartbeating.',
  },
};

const ROW_WORDS: Record<TableKind, HealthWords> = {
  'lockboard-table': SESSION_ROW,
  'unique-index': SESSION_ROW,
  shedlock: TOOL_ROW_WORDS.shedlock,
  liquibase: TOOL_ROW_WORDS.liquibase,
  'db-scheduler': DB_SCHEDULER,
  laravel: TOOL_ROW_WORDS.laravel,
};

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
