// The contract's MySQL: Debian's MariaDB, a throwaway server. The lock is Liquibase's changelog lock in its exact
// MySQL DDL of Liquibase 3.10–4.20 (LOCKED as BIT(1)), taken with Liquibase's own statements; a successor is another
// host's lock. The queue case (rule 7) is a Flyway-named GET_LOCK held by one connection with two connections waiting.
import type { Connection } from 'mysql2/promise';
import { flywayLockName } from '@/lib/lock/stores/mysql';
import { startMariadb, type TestMariadb } from '../helpers/mariadb';
import { delay } from '../helpers/requests';
import type { Harness, QueueHarness } from './harnesses';

const LIQUIBASE_DDL = `CREATE TABLE DATABASECHANGELOGLOCK (ID INT NOT NULL, LOCKED BIT(1) NOT NULL, LOCKGRANTED datetime NULL,
  LOCKEDBY VARCHAR(255) NULL, CONSTRAINT PK_DATABASECHANGELOGLOCK PRIMARY KEY (ID))`;
const LIQUIBASE_TAKE = `UPDATE DATABASECHANGELOGLOCK SET LOCKED = 1, LOCKGRANTED = NOW(), LOCKEDBY = ? WHERE ID = 1 AND LOCKED = 0`;

async function idOf(c: Connection): Promise<{ id: string; identity: string }> {
  const [rows] = await c.query(
    'SELECT ID AS id, USER AS u, HOST AS h FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()',
  );
  const r = (rows as { id: number; u: string; h: string }[])[0]!;
  return { id: String(r.id), identity: `connection ${r.id} (${r.u}@${r.h})` };
}

async function waitingFor(m: TestMariadb, id: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const [rows] = await m.admin.query(
      `SELECT 1 FROM information_schema.PROCESSLIST WHERE ID = ? AND STATE = 'User lock'`,
      [id],
    );
    if ((rows as unknown[]).length) return;
    await delay(10);
  }
  throw new Error(`connection ${id} is not waiting`);
}

export function mysqlQueue(m: TestMariadb, name = flywayLockName('app')): QueueHarness {
  const conns: Connection[] = [];
  const ids: { id: string; identity: string }[] = [];
  return {
    name: `named:${name}`,
    order: [],
    async start() {
      for (let i = 0; i < 3; i++) {
        const c = await m.connect();
        conns.push(c);
        ids.push(await idOf(c));
        if (i === 0) await c.query('SELECT GET_LOCK(?, 10)', [name]);
        else {
          c.query('SELECT GET_LOCK(?, 60)', [name]).catch(() => undefined); // Flyway's call; answered when granted
          await waitingFor(m, ids[i]!.id);
          await delay(20); // a distinct wait time for each, so their order is the order they queued in
        }
      }
      this.order.push(...ids.slice(1).map((x) => x.identity));
    },
    async holder() {
      for (let i = 0; i < 300; i++) {
        const [rows] = await m.admin.query('SELECT CAST(IS_USED_LOCK(?) AS CHAR) AS id', [name]);
        const id = (rows as { id: string | null }[])[0]?.id;
        if (id && id !== ids[0]!.id) return ids.find((x) => x.id === id)?.identity ?? `connection ${id}`;
        await delay(10);
      }
      throw new Error('nobody took the lock over');
    },
    async stop() {
      for (const c of conns) c.destroy();
    },
  };
}

export async function mysqlHarness(): Promise<Harness> {
  const m = await startMariadb();
  await m.admin.query(LIQUIBASE_DDL);
  await m.admin.query('INSERT INTO DATABASECHANGELOGLOCK (ID, LOCKED) VALUES (1, 0)'); // Liquibase's init
  await m.admin.query('CREATE TABLE users (id INT PRIMARY KEY, email VARCHAR(255))');
  return {
    kind: 'mysql',
    source: m.url,
    env: {},
    lock: 'DATABASECHANGELOGLOCK/changelog-lock-1',
    notALock: 'users/1',
    async hold() {
      await m.admin.query(LIQUIBASE_TAKE, ['alice-laptop (10.0.0.5)']);
      await m.admin.query(`INSERT IGNORE INTO users VALUES (1, 'ada@example.com')`);
    },
    async successor() {
      // alice's migration finished (Liquibase's unconditional release) and bob's took the lock
      await m.admin.query(
        'UPDATE DATABASECHANGELOGLOCK SET LOCKED = 0, LOCKGRANTED = NULL, LOCKEDBY = NULL WHERE ID = 1',
      );
      await m.admin.query(LIQUIBASE_TAKE, ['bob-ci (10.0.0.9)']);
    },
    queue: mysqlQueue(m),
    stop: () => m.stop(),
  };
}
