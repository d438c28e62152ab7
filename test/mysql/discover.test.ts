// lockboard discover on a real MariaDB: SHOW DATABASES names the databases (the server's own left out), each is
// listed as `ls mysql://…/DB` lists it (tables of a known lock shape, named locks held now), so the database holding
// a ShedLock row is found with the formats ls names; nothing is written.
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type TestMariadb } from '../helpers/mariadb';
import { discover, lsFormats } from '../cli/discover-fixtures';

let m: TestMariadb;
let holder: mysql.Connection;

/** The server's row changes (Handler_write/update/delete, global): a write of any kind moves them. */
async function writes(): Promise<string> {
  const [rows] = await m.admin.query(
    "SHOW GLOBAL STATUS WHERE Variable_name IN ('Handler_write', 'Handler_update', 'Handler_delete', 'Com_create_table')",
  );
  return JSON.stringify(rows);
}

beforeAll(async () => {
  m = await startMariadb();
  await m.admin.query('CREATE DATABASE quiet');
  // ShedLock's README DDL for MySQL/MariaDB, and a row as ShedLock's MySqlServerTimeStatementsSource writes it
  await m.admin.query(`CREATE TABLE shedlock (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP(3) NOT NULL,
    locked_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))`);
  await m.admin.query(
    `INSERT INTO shedlock (name, lock_until, locked_at, locked_by)
     VALUES ('report', TIMESTAMPADD(MICROSECOND, 600000000, UTC_TIMESTAMP(3)), UTC_TIMESTAMP(3), 'worker-1')`,
  );
  holder = await m.connect();
  await holder.query("SELECT GET_LOCK('deploy', 10)");
}, 120_000);
afterAll(async () => {
  await holder?.end().catch(() => undefined);
  await m?.stop();
});

describe('lockboard discover mysql://USER@HOST:PORT/', () => {
  it('finds the database holding a ShedLock row, with the formats ls lists there, writing nothing', async () => {
    const server = m.url.replace(/\/[^/]*$/, '/');
    const source = `mysql://127.0.0.1:${m.port}/${m.database}`;
    const before = await writes();
    const { report, bySource } = await discover(server);
    expect(report.unreachable).toBeUndefined();
    expect(report.roots).toBe(2); // the test database and quiet; information_schema, mysql… left out
    expect(bySource[source]!.formats).toEqual(await lsFormats(m.url));
    expect(bySource[source]!.formats).toEqual({ shedlock: 1, 'mysql-named-lock': 1 });
    // the named lock is the server's, listed with every database: counted once, so quiet is no candidate
    expect(Object.keys(bySource)).toEqual([source]);
    expect(await writes()).toBe(before);
  });
});
