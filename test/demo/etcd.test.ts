// The demo's etcd on Debian's etcd-server: a wedged etcdctl lock holder with two waiters queued behind it, an
// election, an npm etcd3 lock, Lockboard's own workers, and a key that is not a lock; all stopped with the demo.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoEtcd, type DemoEtcd } from '@/lib/demo/etcd';
import { Stopper } from '@/lib/demo/stopper';
import { openSource, parseSource } from '@/lib/lock/stores';
import { freePort } from '../helpers/browser';
import { requireEtcd } from '../helpers/etcd';
import { delay } from '../helpers/requests';

let demo: DemoEtcd | null;

/** A free port whose next one is free too (the demo's etcd takes both: clients and peers). */
async function freePair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    const ok = await new Promise<boolean>((resolve) => {
      const srv = createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port + 1, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (ok && port < 65534) return port;
  }
}
const stop = new Stopper();
const dir = mkdtempSync(join(tmpdir(), 'lockboard-demo-etcd-'));

beforeAll(async () => {
  requireEtcd();
  demo = await startDemoEtcd(dir, await freePair(), stop);
}, 20_000);
afterAll(async () => {
  stop.stop();
  await demo?.stop();
  await Promise.race([Promise.allSettled(demo?.loops ?? []), delay(3_000)]);
  demo?.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe('the demo’s etcd', () => {
  it('has a wedged etcdctl lock holder with two waiters, an election, an npm etcd3 lock and a key that is not a lock', async () => {
    const store = await openSource(parseSource(demo!.url), { env: {}, role: 'cli' });
    try {
      await delay(500); // the workers' first lock
      const page = await store.list();
      const byName = new Map(page.locks.map((l) => [l.name, l]));
      const migrate = byName.get('jobs/db-migrate')!;
      expect([migrate.format, migrate.health, migrate.waiters!.length]).toEqual(['etcd-mutex', 'healthy', 2]);
      const scheduler = byName.get('leaders/scheduler')!;
      expect([scheduler.identity, scheduler.waiters!.map((w) => w.identity)]).toEqual([
        'scheduler-a.prod:7070',
        ['scheduler-b.prod:7070'],
      ]);
      expect(byName.get('jobs/report-cache')!.format).toBe('etcd3-lock');
      expect(byName.get('jobs/search-reindex')!.format).toBe('etcd-mutex');
      expect(page.skipped).toBe(1);
    } finally {
      await store.close();
    }
  });
});
