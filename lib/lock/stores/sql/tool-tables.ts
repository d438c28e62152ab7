// The lock tables both SQL stores recognise, as their tools write them: ShedLock, Liquibase's DATABASECHANGELOGLOCK and
// Laravel's cache_locks. Their columns (a table is one when it has them all, lower-cased) and their words and truth
// tables are the tools', not the database's, so PostgreSQL and MySQL/MariaDB share them.
import type { HealthWords } from '../../types';

type ToolTable = 'shedlock' | 'liquibase' | 'laravel';

/** Each tool's table by the columns it must have. */
export const TOOL_SHAPES: Record<ToolTable, string[]> = {
  shedlock: ['name', 'lock_until', 'locked_at', 'locked_by'],
  liquibase: ['id', 'locked', 'lockgranted', 'lockedby'],
  laravel: ['key', 'owner', 'expiration'],
};

const SHEDLOCK: HealthWords = {
  meaning: {
    healthy: 'Held: its lock_until has not passed (on the database clock).',
    expired: 'Its lock_until has passed: the next scheduler run takes it.',
  },
  changes: { healthy: 'Free when lock_until passes, unless its task extends it first.' },
  advice: {
    healthy: 'Only if you know its task must stop: lock_until has not passed, and the task is not told.',
    expired: 'Yes: its lock_until has passed.',
  },
};

const LIQUIBASE: HealthWords = {
  meaning: {
    unknown:
      'Liveness cannot be judged: the row records who took the lock and when, never whether that process still runs. It stays until its update finishes or an operator clears it.',
    'long-held':
      'Held longer than the configured limit. The row never says whether its holder still runs, so that cannot be judged.',
  },
  advice: {
    unknown: 'Check with the holder (Locked by) first: a migration still running would run alongside the next one.',
    'long-held': 'Its liveness cannot be judged: clear only if the holder (Locked by) is known to be gone.',
  },
};

const LARAVEL: HealthWords = {
  meaning: {
    healthy: 'Held: its expiration (the app’s clock) has not passed by the database’s clock.',
    expired: 'Its expiration has passed: the next Cache::lock() takes it over.',
  },
  changes: { healthy: 'Free when the expiration passes (24 h for a lock taken without seconds).' },
  advice: {
    healthy:
      'Only if you know its job is gone (a crashed withoutOverlapping() task keeps its lock 24 h): the job is not told.',
    expired: 'Yes: its expiration has passed.',
  },
};

export const TOOL_ROW_WORDS: Record<ToolTable, HealthWords> = {
  shedlock: SHEDLOCK,
  liquibase: LIQUIBASE,
  laravel: LARAVEL,
};
