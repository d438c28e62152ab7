// The verdict on ZooKeeper holders from their sessions in `cons` (stores.md "Verdict"), on Debian's ZooKeeper (its
// test config whitelists cons) with real kazoo and Curator holders: connected and pinging → alive; a SIGSTOPped kazoo
// holder → stalled while the server keeps its session, then its node goes at session expiry; a SIGKILLed holder's
// session is in no member's cons → unknown while its client may resume it (never gone from one read: its node stays
// until ZooKeeper ends the session); without cons → unknown, naming 4lw.commands.whitelist.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { verdictOf, type LockVerdict } from '@/lib/lock/verdict/verdict';
import type { LockStore } from '@/lib/lock/store';
import { ZooKeeperLockStore } from '@/lib/lock/stores/zookeeper/store';
import { kazoo, startZkRig, startZooKeeper, zkClient, type RecipeDriver, type ZkRig } from '../helpers/zookeeper';
import { delay } from '../helpers/requests';

let rig: ZkRig;
let store: LockStore;
const extra: RecipeDriver[] = [];
beforeAll(async () => {
  rig = await startZkRig('/app');
  store = judgedStore(rig.store);
}, 60_000);
afterAll(async () => {
  for (const d of extra) await d.stop();
  await rig?.stop();
});

async function until(
  name: string,
  ok: (v: LockVerdict | null) => boolean,
  ms = 20_000,
  on: LockStore = store,
): Promise<LockVerdict | null> {
  let last: LockVerdict | null | undefined;
  for (const deadline = Date.now() + ms; Date.now() < deadline; await delay(200)) {
    const view = await on.inspect(name);
    last = view ? (verdictOf(view) ?? null) : null;
    if (ok(last)) return last;
  }
  throw new Error(`${name}: not in time; last ${JSON.stringify(last)}`);
}

/** A kazoo holder in a process of its own, so a signal reaches only its session. */
async function ownKazoo(id: string, path: string): Promise<RecipeDriver> {
  const d = kazoo(rig.server.hosts);
  extra.push(d);
  await d.start(id, 'lock', path, id);
  return d;
}

describe('ZooKeeper holders judged by their sessions in cons', () => {
  it('judges kazoo and Curator holders alive: connected and answered within half their timeout', async () => {
    await rig.k.start('alice', 'lock', '/app/jobs/report', 'alice');
    const v = (await until('/app/jobs/report', () => true))!;
    expect(v.verdict).toBe('alive');
    expect(v.sentence).toMatch(
      /^Alive: session 0x[0-9a-f]+ \(client 127\.0\.0\.1:\d+\) is connected and was last answered \d+ s before the server's latest answer \(last operation \w+\)\.$/,
    );
    expect(v.evidence[0]).toMatchObject({
      from: `cons on ${rig.server.hosts}`,
      fact: expect.stringMatching(
        /^session 0x[0-9a-f]+: client 127\.0\.0\.1:\d+, last operation \w+, last answered \d+ s before the server's latest answer, established \S+Z, timeout \d+ s$/,
      ),
    });
    await rig.c.start('cur', 'mutex', '/app/cur/deploy', 'cur');
    expect((await until('/app/cur/deploy', () => true))!.verdict).toBe('alive');
  }, 60_000);

  it('judges a SIGSTOPped kazoo holder stalled while its session stays, until the session expires', async () => {
    const d = await ownKazoo('frozen', '/app/jobs/frozen');
    expect((await until('/app/jobs/frozen', () => true))!.verdict).toBe('alive');
    process.kill(d.pid!, 'SIGSTOP');
    try {
      const stalled = (await until('/app/jobs/frozen', (v) => v?.verdict === 'stalled'))!;
      expect(stalled.sentence).toMatch(
        /^Stalled: session 0x[0-9a-f]+ \(client 127\.0\.0\.1:\d+\) has been silent for \d+ s \(last operation \w+\): its client is not pinging; the server ends the session, and its node, once its 10 s timeout passes\.$/,
      );
      await until('/app/jobs/frozen', (v) => v === null); // session expired: the ephemeral node is gone, the lock free
    } finally {
      process.kill(d.pid!, 'SIGCONT');
    }
  }, 60_000);

  it('never judges a SIGKILLed holder gone while the server may still resume its session, then gone or free', async () => {
    // absent from cons is no proof while its client may resume the session (between-connections.test.ts has the
    // whole rule): unknown until its 10 s timeout has passed since the first pass that missed it; this server
    // answers conf, so past that (the whole ensemble read) it may be judged gone until ZooKeeper drops the node
    const d = await ownKazoo('killed', '/app/jobs/killed');
    expect((await until('/app/jobs/killed', () => true))!.verdict).toBe('alive');
    process.kill(d.pid!, 'SIGKILL');
    const killedAt = Date.now();
    const seen: { v: LockVerdict | null; at: number }[] = [];
    await until('/app/jobs/killed', (v) => (seen.push({ v, at: Date.now() }), v === null));
    const judged = seen.filter((s) => s.v !== null && s.v.verdict !== 'alive');
    const early = judged.filter((s) => s.at - killedAt < 10_000);
    expect(early.length).toBeGreaterThan(0);
    expect(early.map((s) => s.v!.verdict)).toEqual(early.map(() => 'unknown'));
    expect(judged.map((s) => s.v!.verdict).every((v) => v === 'unknown' || v === 'gone')).toBe(true);
    expect(early[0]!.v!.sentence).toMatch(
      /^Unknown: session 0x[0-9a-f]+ is connected to no member of the ensemble \(absent from every member’s cons for \d+ s, last seen connected \d+ s ago\): its client may resume it on any member until its 10 s timeout has passed, \d+ s from now\.$/,
    );
    expect(early[0]!.v!.settleMs).toBeGreaterThan(0);
  }, 60_000);

  it('says unknown, naming 4lw.commands.whitelist, where the server does not answer cons', async () => {
    const server = await startZooKeeper({ words: 'srvr,ruok' }); // a server as shipped by some: no cons
    const holder = kazoo(server.hosts);
    const conn = await zkClient(server.hosts, '/app');
    const plain = judgedStore(new ZooKeeperLockStore({ conn }));
    try {
      await holder.start('bob', 'lock', '/app/jobs/nocons', 'bob');
      const v = (await until('/app/jobs/nocons', (v) => v !== null, 10_000, plain))!;
      expect(v.verdict).toBe('unknown');
      expect(v.sentence).toBe(
        `Unknown: session ${/session (0x[0-9a-f]+)/.exec(v.sentence)![1]} is not in the cons of the servers that answered (${server.hosts} does not whitelist cons): adding cons to 4lw.commands.whitelist there would settle it.`,
      );
    } finally {
      await plain.close();
      await holder.stop();
      await server.stop();
    }
  }, 60_000);
});
