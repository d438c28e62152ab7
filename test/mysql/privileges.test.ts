// The console as a user with fewer grants (no PROCESS, no CONNECTION ADMIN): named locks of its own user are still
// listed, and releasing another user's named lock is refused before anything is ended, naming the grant it needs.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openSource, parseSource } from '@/lib/lock/stores';
import type { LockStore } from '@/lib/lock/store';
import { storeUnavailable } from '@/lib/lock/store-errors';
import { startMariadb, type TestMariadb } from '../helpers/mariadb';

let m: TestMariadb;
let store: LockStore;
beforeAll(async () => {
  m = await startMariadb();
  await m.admin.query(`CREATE USER 'console'@'%' IDENTIFIED BY 'console-pw'`);
  await m.admin.query(`GRANT SELECT, INSERT, CREATE, UPDATE, DELETE ON app.* TO 'console'@'%'`);
  const source = `mysql://console@127.0.0.1:${m.port}/app`;
  store = await openSource(parseSource(source), { env: { MYSQL_PWD: 'console-pw' }, role: 'console' });
});
afterAll(async () => {
  await store?.close();
  await m?.stop();
});

it("refuses to end another user's connection without CONNECTION ADMIN, and ends nothing", async () => {
  await m.admin.query(`SELECT GET_LOCK('Flyway--320650056', 0)`);
  const lock = await store.inspect('named:Flyway--320650056');
  expect(lock, 'listed from METADATA_LOCK_INFO even without PROCESS').not.toBeNull();
  expect(lock!.details.find(([k]) => k === 'Command')?.[1]).toMatch(/grant PROCESS/);
  const err = await store
    .forceRelease({ name: lock!.name, version: lock!.version, reason: 'x', operator: 'ops' })
    .catch((e: unknown) => e);
  expect(storeUnavailable(err)).toMatch(/grant CONNECTION ADMIN/);
  const [rows] = await m.admin.query(`SELECT IS_USED_LOCK('Flyway--320650056') = CONNECTION_ID() AS mine`);
  expect((rows as { mine: number }[])[0]!.mine).toBe(1);
});
