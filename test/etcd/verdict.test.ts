// The verdict on etcd holders from their leases (stores.md "Verdict"), with real etcdctl holders on Debian's etcd:
// `etcdctl lock` and `etcdctl elect` keep their session lease alive → alive once a keep-alive is seen between two
// reads (unknown when seen once, with the wait that settles it); a lease granted without keep-alive
// (`etcdctl lease grant` + `put --lease`) only falls → unknown until it runs out, then its key is gone (free); a
// SIGSTOPped `etcdctl lock` stops renewing → its keep-alive overdue, then its key goes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockStore } from '@/lib/lock/store';
import { openSource, parseSource } from '@/lib/lock/stores';
import { verdictOf, type LockVerdict } from '@/lib/lock/verdict/verdict';
import { startEtcd, type TestEtcd } from '../helpers/etcd';
import { delay } from '../helpers/requests';

let etcd: TestEtcd;
let store: LockStore;
beforeAll(async () => {
  etcd = await startEtcd();
  store = await openSource(parseSource(`etcd://${etcd.endpoint}/`), { env: {}, role: 'cli' });
});
afterAll(async () => {
  await store?.close();
  await etcd?.stop();
});

/** Reads `name` every 200 ms (each read a listing pass) until `ok` holds of its verdict (null: the lock is gone). */
async function until(name: string, ok: (v: LockVerdict | null) => boolean, ms = 20_000): Promise<LockVerdict | null> {
  let last: LockVerdict | null | undefined;
  for (const deadline = Date.now() + ms; Date.now() < deadline; await delay(200)) {
    await store.list(); // a listing pass reads each distinct lease once, as the console's watcher does
    const view = await store.inspect(name);
    last = view ? (verdictOf(view) ?? null) : null;
    if (ok(last)) return last;
  }
  throw new Error(`${name}: not in time; last ${JSON.stringify(last)}`);
}

describe('etcd holders judged by their leases', () => {
  it('judges etcdctl lock unknown when seen once, then alive once its keep-alive is seen', async () => {
    const h = await etcd.queue(['lock', '--ttl', '12', 'jobs/deploy']);
    const first = verdictOf((await store.inspect('jobs/deploy'))!)!;
    expect(first.verdict).toBe('unknown');
    expect(first.sentence).toMatch(
      new RegExp(
        `^Unknown: lease ${h.lease} seen (once|for \\d+ s only) \\(TTL \\d+ s of 12 s\\): a second read after one keep-alive interval settles whether it is kept alive\\.$`,
      ),
    );
    expect(first.settleMs).toBeGreaterThan(0);
    expect(first.settleMs).toBeLessThanOrEqual(5_500);
    const alive = (await until('jobs/deploy', (v) => v?.verdict === 'alive'))!;
    expect(alive.sentence).toMatch(
      new RegExp(`^Alive: lease ${h.lease} was kept alive between two reads \\(its TTL reset to \\d+ s of 12 s\\)\\.$`),
    );
    expect(alive.evidence).toEqual([
      {
        fact: expect.stringMatching(/^TTL \d+ s of 12 s granted; a keep-alive seen \d+ s ago$/),
        from: `LeaseTimeToLive(${h.lease})`,
        at: expect.any(String),
      },
    ]);
    // frozen, its keep-alive stops: overdue (unknown, settled when the lease runs out), then etcd deletes the key
    process.kill(h.c.child.pid!, 'SIGSTOP');
    const overdue = (await until('jobs/deploy', (v) => v?.verdict !== 'alive'))!;
    expect(overdue.sentence).toMatch(
      new RegExp(
        `^Unknown: lease ${h.lease}'s keep-alive is overdue \\(last renewed \\d+ s ago\\); etcd deletes the holder key when it runs out in \\d+ s\\.$`,
      ),
    );
    await until('jobs/deploy', (v) => v === null);
    process.kill(h.c.child.pid!, 'SIGCONT');
    await h.c.stop();
  }, 60_000);

  it('judges the leader of etcdctl elect alive', async () => {
    const leader = await etcd.queue(['elect', 'leaders/api', 'node-a']);
    const v = (await until('leaders/api', (v) => v?.verdict === 'alive', 45_000))!; // etcdctl elect renews its 60 s session every 20 s
    expect(v.sentence).toMatch(new RegExp(`^Alive: lease ${leader.lease} was kept alive between two reads`));
    await leader.c.stop();
  }, 60_000);

  it('says a lease granted without keep-alive only falls, until it runs out and the key is gone', async () => {
    const granted = etcd.ctl('lease', 'grant', '6'); // "lease 694d… granted with TTL(6s)"
    // etcdctl prints the id as %016x; Lockboard names a lease as its keys' suffix does (%x, no leading zeros)
    const lease = BigInt(`0x${/lease ([0-9a-f]+) granted/.exec(granted)![1]!}`).toString(16);
    etcd.ctl('put', `--lease=${lease}`, 'jobs/oneshot', '');
    const falling = (await until('jobs/oneshot', (v) => /only fell/.test(v?.sentence ?? '')))!;
    expect(falling.verdict).toBe('unknown');
    expect(falling.sentence).toMatch(
      new RegExp(
        `^Unknown: lease ${lease}'s TTL only fell over \\d+ s \\(no keep-alive seen\\); etcd deletes the holder key when it runs out in \\d+ s\\.$`,
      ),
    );
    expect(falling.settleMs).toBeLessThanOrEqual(3_000);
    await until('jobs/oneshot', (v) => v === null); // ran out: the key is gone, the lock free
  }, 60_000);
});
