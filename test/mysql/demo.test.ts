// The demo's MariaDB as `npm run demo` starts it: a stuck Liquibase lock, a Flyway named lock held by a live
// connection with a second Flyway waiting, ShedLock and Laravel rows, all listed through the registry; stopped after.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startDemoMysql, type DemoMysql } from '@/lib/demo/mysql';
import { Stopper } from '@/lib/demo/stopper';
import { listAll } from '@/lib/lock/list-all';
import { openSource, parseSource } from '@/lib/lock/stores';
import { flywayLockName } from '@/lib/lock/stores/mysql';
import { freePort } from '../helpers/browser';
import { delay } from '../helpers/requests';

const dir = mkdtempSync(join(tmpdir(), 'lockboard-demo-mysql-'));
const stop = new Stopper();
let demo: DemoMysql | null = null;
afterAll(async () => {
  stop.stop();
  await demo?.stop();
  await Promise.allSettled(demo?.loops ?? []);
  rmSync(dir, { recursive: true, force: true });
});

it('starts a MariaDB with a stuck Liquibase lock, a Flyway lock and its waiter, ShedLock and Laravel rows', async () => {
  demo = await startDemoMysql(dir, await freePort(), stop);
  expect(demo).not.toBeNull();
  const store = await openSource(parseSource(demo!.url), { env: {}, role: 'cli' });
  try {
    let flyway;
    for (let i = 0; i < 100 && !flyway?.waiters?.length; i++) {
      flyway = (await listAll(store)).locks.find((l) => l.name === `named:${flywayLockName('app')}`);
      await delay(50);
    }
    expect(flyway?.waiters).toHaveLength(1);
    const names = (await listAll(store)).locks.map((l) => l.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'DATABASECHANGELOGLOCK/changelog-lock-1',
        'shedlock/invoice-run',
        'shedlock/reindex-search',
        'cache_locks/laravel_cache_framework/schedule-1f3c0c5b3e4a8d2f6b7a9c0d1e2f3a4b5c6d7e8f',
      ]),
    );
  } finally {
    await store.close();
  }
});
