// A hold on etcd against a real etcd server and Debian's etcdctl: a Mutex key on a lease of the hold's length, with
// the hold's owner and reason as its value. `etcdctl lock` queues behind it and waits; it gets the lock once etcd ended
// the hold at its lease's end, or at once when unhold ends it sooner. A held name is refused naming its holder (11).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { requireEtcd, startEtcd, type TestEtcd } from '../helpers/etcd';

let etcd: TestEtcd;
let source: string;
beforeAll(async () => {
  requireEtcd();
  etcd = await startEtcd();
  source = `etcd://${etcd.endpoint}/`;
}, 60_000);
afterAll(() => etcd?.stop());

describe('lockboard hold on etcd://', () => {
  it('makes `etcdctl lock` wait until etcd ends the hold at its lease’s end', async () => {
    const started = Date.now();
    const held = await runCli(
      ['hold', source, 'deploy', '--reason', 'INC-7 freeze', '--for', '10s', '--operator', 'eve'],
      {},
    );
    expect(held.code, held.stderr).toBe(0);
    const c = await etcd.contender(['lock', 'deploy', 'echo', 'GOT-IT'], { queued: true });
    try {
      const why = await runCli(['why', source, 'deploy'], {});
      expect(why.stdout).toMatch(/Held on purpose by eve · INC-7 freeze · until .* left\)/);
      const again = await runCli(['hold', source, 'deploy', '--reason', 'x', '--for', '1h'], {});
      expect(again.code).toBe(11);
      expect(again.stderr).toContain('eve (lockboard hold until');
      expect(c.output()).not.toContain('GOT-IT');
      await c.waitFor('GOT-IT', 25_000);
      expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
    } finally {
      await c.stop();
    }
  });

  it('lets the waiting `etcdctl lock` in at once when unhold ends the hold', async () => {
    const held = await runCli(['hold', source, 'etl', '--reason', 'backfill', '--for', '1h'], {});
    expect(held.code, held.stderr).toBe(0);
    const c = await etcd.contender(['lock', 'etl', 'echo', 'GOT-IT'], { queued: true });
    try {
      await new Promise((res) => setTimeout(res, 500));
      expect(c.output()).not.toContain('GOT-IT');
      const end = await runCli(['unhold', source, 'etl'], {});
      expect(end.code, end.stderr).toBe(0);
      await c.waitFor('GOT-IT', 5_000);
    } finally {
      await c.stop();
    }
  });
});
