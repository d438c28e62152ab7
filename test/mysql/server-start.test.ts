// A named lock's version pins the server's start; read as NOW(3) less an Uptime from another statement it flipped
// by one second between reads (…1546… in the console, …1547… in the CLI). Read in one statement it is exact: every
// read, every store and every tool give one version, and a version in the older form still releases.
import type { Connection } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asDb, MysqlLockStore } from '@/lib/lock/stores/mysql';
import { serverClock } from '@/lib/lock/stores/mysql/server';
import { startMariadb, type TestMariadb } from '../helpers/mariadb';
import { delay } from '../helpers/requests';

let m: TestMariadb;
let holder: Connection;
beforeAll(async () => {
  m = await startMariadb();
  holder = await m.connect();
  await holder.query(`SELECT GET_LOCK('nightly', 0)`);
}, 120_000);
afterAll(async () => {
  holder?.destroy();
  await m?.stop();
});

const newStore = () =>
  new MysqlLockStore({ db: asDb(m.admin, 'mysql'), source: `mysql://127.0.0.1:${m.port}/app`, database: 'app' });

describe('a MySQL server’s start', () => {
  it('reads the same start on every read, across second boundaries', async () => {
    const starts = new Set<number>();
    for (let i = 0; i < 25; i++) {
      starts.add((await serverClock(asDb(m.admin, 'mysql'))).startS);
      await delay(97);
    }
    expect([...starts]).toHaveLength(1);
  });

  it('gives a named lock one version from every store, as the console and the CLI each build their own', async () => {
    const versions = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const view = await newStore().inspect('named:nightly');
      versions.add(view!.version);
      await delay(170);
    }
    expect([...versions]).toHaveLength(1);
  });

  it('still releases a version whose start is one second off (the older estimate)', async () => {
    const store = newStore();
    const view = (await store.inspect('named:nightly'))!;
    const [id, start, crc] = view.version.split('.');
    const older = `${id}.${Number(start) + 1}.${crc}`;
    const result = await store.forceRelease({ name: 'named:nightly', version: older, reason: 'test', operator: 'ops' });
    expect(result.outcome).toBe('released');
  });
});
