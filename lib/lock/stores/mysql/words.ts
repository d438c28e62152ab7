// MySQL's and MariaDB's words, one file: a named lock lives as long as its holder's connection (ended only by KILL,
// which rolls back its transaction); a lock table's row as its tool says (ShedLock's and Liquibase's truth tables are
// the PostgreSQL store's, Laravel's by an expiration on the app's clock, too); Quartz's rows are shown, never cleared.
import type { StoreTerms } from '../../store';
import type { HealthWords } from '../../types';
import { TOOL_ROW_WORDS } from '../sql/tool-tables';
import type { MysqlTableKind } from './tables';

const TRAIL =
  'Force-releases are recorded in the lockboard_audit table (attempt before, outcome after), with Lockboard’s own ' +
  'runs’ releases. Other tools record nothing.';

const NAMED_WORDS: HealthWords = {
  meaning: {
    healthy: 'Held by a connected session that is working (or idle outside a transaction).',
    overdue: 'Its session has slept inside an open transaction for long: it holds the lock while doing nothing.',
    'long-held': 'Held by a connected session for longer than the configured limit.',
  },
  changes: {
    healthy: 'It ends when its session calls RELEASE_LOCK or disconnects; it never times out.',
    overdue: 'Healthy again when the session works again; it ends when the session releases it or disconnects.',
    'long-held': 'It ends when its session releases it or disconnects; it never times out.',
  },
  advice: {
    healthy: 'Only if you know its work must stop: its session is connected.',
    overdue: 'Caution: the session is connected, only idle; its client may come back. Clearing ends the connection.',
    'long-held': 'Only if you know its job is stuck: its session is connected.',
  },
};

const QUARTZ: HealthWords = {
  meaning: {
    unknown:
      'A Quartz lock row: Quartz holds it with SELECT … FOR UPDATE inside a transaction, which only InnoDB sees (not which row).',
  },
  advice: { unknown: 'Not cleared by Lockboard: ending the transaction would mean killing a scheduler’s connection.' },
};

const ROWS: Record<MysqlTableKind, HealthWords> = {
  shedlock: TOOL_ROW_WORDS.shedlock,
  liquibase: TOOL_ROW_WORDS.liquibase,
  laravel: TOOL_ROW_WORDS.laravel,
  quartz: QUARTZ,
};

/** MySQL 8's remaining window: between this read and the KILL (a few ms on one connection). */
export const MYSQL8_WINDOW =
  'MySQL 8 runs no anonymous blocks: the check and the KILL are two statements on one connection, so a holder that ' +
  'released and re-took the lock in the milliseconds between them would still be ended.';

const storeLabel = (mariadb: boolean): string => (mariadb ? 'MariaDB' : 'MySQL');

export function namedTerms(o: { mariadb: boolean; window?: string }): StoreTerms {
  const label = storeLabel(o.mariadb);
  return {
    storeLabel: label,
    versionName: 'holder connection (id + server start)',
    since: 'Held for',
    liveness: 'Held while the holder’s connection is open: it ends with the connection, never by a timeout.',
    effect:
      'Clearing ends the holder’s whole connection (KILL CONNECTION): its open transaction rolls back, every other ' +
      'named lock it holds is freed, and the next waiter gets this one. Its client sees "Lost connection".',
    rule:
      `${label} rule: KILL only while IS_USED_LOCK(name) is still that connection on the same server run` +
      (o.window ? `. ${o.window}` : ', in one statement: a waiter, a new holder or a restarted server is never ended.'),
    trail: TRAIL,
    confirmByName: true,
    health: NAMED_WORDS,
  };
}

export function rowTerms(o: { kind: MysqlTableKind; mariadb: boolean; recordsTime: boolean }): StoreTerms {
  const label = storeLabel(o.mariadb);
  return {
    storeLabel: label,
    versionName: 'row version',
    since: o.recordsTime ? 'Held since' : 'Seen since',
    liveness:
      o.kind === 'liquibase'
        ? 'The row never says whether its holder still runs: it stays LOCKED until released.'
        : o.kind === 'quartz'
          ? 'Held by a scheduler’s open transaction (SELECT … FOR UPDATE), never by the row’s contents.'
          : 'The row says until when it is held; after that its library takes it over.',
    effect:
      'Clearing runs one conditional statement on exactly the row you saw, as the tool itself releases it; the ' +
      'holder finds out only when it next touches its row.',
    rule: `${label} rule: one UPDATE (or DELETE) whose WHERE names exactly the row version you see here: a successor’s row is never touched.`,
    trail: TRAIL,
    health: ROWS[o.kind],
  };
}
