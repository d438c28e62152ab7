// Named locks (GET_LOCK): every one with its holder's connection and its waiters in order, read from the best source
// this server and grant allow (facts-mysql.md §2.2): performance_schema.metadata_locks (MySQL 8; MariaDB when the mdl
// instrument is on: it shows waiters), information_schema.METADATA_LOCK_INFO (MariaDB's plugin: holders only, waiters
// from the process list), or the process list alone (waiters, and the holders of the names they wait for).
import type { Db } from './client';
import { serverClock, type ServerClock } from './server';
import { hidden, processList, type Connection } from './sessions';

export type { Connection } from './sessions';

export interface NamedLock {
  name: string;
  holder: Connection;
  /** How long the holder has held it, where the source says (METADATA_LOCK_INFO's LOCK_TIME_MS). */
  heldMs?: number;
  /** Waiting connections, the longest waiting first (the order MariaDB granted them in facts-mysql.md). */
  waiters: Connection[];
}

export interface NamedReading {
  locks: NamedLock[];
  /** Which source listed them, for people. */
  via: string;
  /** What this source cannot show, and the grant or plugin that would. */
  missing?: string;
  clock: ServerClock;
}

const VIA = {
  ps: 'performance_schema.metadata_locks',
  mli: 'information_schema.METADATA_LOCK_INFO',
  list: 'the process list',
};

type Held = { name: string; id: string; ms?: number | null };

async function psLocks(db: Db): Promise<{ held: Held[]; pending: Held[] } | null> {
  const on = await db
    .rows<{ e: string }>(
      `SELECT ENABLED AS e FROM performance_schema.setup_instruments WHERE NAME = 'wait/lock/metadata/sql/mdl'`,
    )
    .catch(() => []);
  if (on[0]?.e !== 'YES') return null;
  const rows = await db
    .rows<{ name: string; status: string; id: string }>(
      `SELECT m.OBJECT_NAME AS name, m.LOCK_STATUS AS status, CAST(t.PROCESSLIST_ID AS CHAR) AS id
       FROM performance_schema.metadata_locks m JOIN performance_schema.threads t ON t.THREAD_ID = m.OWNER_THREAD_ID
       WHERE m.OBJECT_TYPE = 'USER LEVEL LOCK'`,
    )
    .catch(() => null);
  if (!rows) return null;
  return { held: rows.filter((r) => r.status === 'GRANTED'), pending: rows.filter((r) => r.status === 'PENDING') };
}

async function mliLocks(db: Db): Promise<Held[] | null> {
  return db
    .rows<Held>(
      `SELECT TABLE_SCHEMA AS name, CAST(THREAD_ID AS CHAR) AS id, LOCK_TIME_MS AS ms
       FROM information_schema.METADATA_LOCK_INFO WHERE LOCK_TYPE = 'User lock'`,
    )
    .catch(() => null);
}

/** The lock name a `User lock` wait is for, from its statement text (`GET_LOCK('name', 10)`); undefined if hidden. */
function waitedName(info: string | null): string | undefined {
  const m = /GET_LOCK\s*\(\s*(['"])((?:\\.|(?!\1).|\1\1)*)\1/is.exec(info ?? '');
  if (!m) return undefined;
  const q = m[1]!;
  return m[2]!.replace(new RegExp(`${q}${q}`, 'g'), q).replace(/\\(.)/g, '$1');
}

async function usedBy(db: Db, names: string[]): Promise<Held[]> {
  const held: Held[] = [];
  for (const name of names) {
    const [r] = await db.rows<{ id: string | null }>('SELECT CAST(IS_USED_LOCK(?) AS CHAR) AS id', [name]);
    if (r?.id) held.push({ name, id: r.id });
  }
  return held;
}

const byWait = (a: Connection, b: Connection) => b.timeMs - a.timeMs || Number(a.id) - Number(b.id);

export async function readNamedLocks(db: Db): Promise<NamedReading> {
  const clock = await serverClock(db);
  const [ps, mli, list] = await Promise.all([psLocks(db), mliLocks(db), processList(db, clock.mariadb)]);
  const conn = new Map(list.map((c) => [c.id, c]));
  const userWaits = list.filter((c) => c.state === 'User lock' || c.state === 'Waiting for user lock');
  let held: Held[];
  let pendingOf: (name: string) => Connection[];
  const fromList = (name: string) => userWaits.filter((c) => waitedName(c.info) === name);
  let via: string;
  let missing: string | undefined;
  if (ps) {
    held = [...ps.held, ...(mli ?? []).filter((m) => !ps.held.some((h) => h.name === m.name))];
    pendingOf = (name) => ps.pending.filter((p) => p.name === name).flatMap((p) => conn.get(p.id) ?? []);
    via = mli ? `${VIA.ps} and ${VIA.mli}` : VIA.ps;
  } else if (mli) {
    held = mli;
    pendingOf = fromList;
    via = `${VIA.mli}; waiters from ${VIA.list}`;
    missing = 'waiters whose statement text hides the lock name (enable the wait/lock/metadata/sql/mdl instrument)';
  } else {
    const names = [...new Set(userWaits.map((c) => waitedName(c.info)).filter((n): n is string => !!n))];
    held = await usedBy(db, names);
    pendingOf = fromList;
    via = VIA.list;
    missing =
      'named locks nobody waits for: load the metadata_lock_info plugin (MariaDB: INSTALL SONAME ' +
      "'metadata_lock_info') or turn on performance_schema with the mdl instrument (MySQL 8: on by default)";
  }
  const locks = held.map((h) => {
    const holder = conn.get(h.id) ?? hidden(h.id);
    const waiters = pendingOf(h.name)
      .filter((w) => w.id !== h.id)
      .sort(byWait);
    return { name: h.name, holder, waiters, ...(h.ms != null ? { heldMs: Number(h.ms) } : {}) };
  });
  return { locks, via, clock, ...(missing ? { missing } : {}) };
}
