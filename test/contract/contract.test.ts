// The store contract (stores.md "One contract"), run unchanged against every store, through the library (the
// registry's LockStore) and through the CLI's exit codes: the same promises to an operator whatever the store.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canClaim, VersionShapeError, type ClaimingStore, type LockStore } from '@/lib/lock/store';
import { definitionOf, openSource, parseSource } from '@/lib/lock/stores';
import { runCli } from '../helpers/cli';
import { HARNESSES, type Harness } from './harnesses';
import { coldListing, expectJudged } from './judged-views';

describe.each(HARNESSES)('the store contract on %s', (_kind, start) => {
  let h: Harness;
  let store: LockStore;
  const cli = (...args: string[]) => runCli(args, h.env);
  const release = (name: string, version: string) =>
    cli('release', h.source, name, '--version', version, '--reason', 'contract', '--operator', 'ci');

  beforeAll(async () => {
    h = await start();
    store = await openSource(parseSource(h.source), { env: { ...process.env, ...h.env }, role: 'cli' });
    await h.hold();
  });
  afterAll(async () => {
    await store?.close();
    await h?.stop();
  });

  it('judges every view of a cold listing, those read after the page (`later`) too', async () => {
    // first, before anything under the source was read (GCS keeps bodies process-wide): a metadata-first store lists
    // the bodies it has to read as pending and hands them over later
    const cold = await openSource(parseSource(h.source), { env: { ...process.env, ...h.env }, role: 'cli' });
    try {
      const { page, later, pending, delivered } = await coldListing(cold);
      expect(delivered, 'every pending view handed over').toBe(pending);
      if (h.readsLater) expect(later.map((v) => v.name)).toContain(h.lock);
      for (const v of page.locks) expectJudged(v, 'page');
      for (const v of later) expectJudged(v, 'later');
      const lock = [...later, ...page.locks].find((l) => l.name === h.lock && !l.pending);
      expect(lock?.verdict, `${h.lock} judged, on the page or later`).toBeDefined();
      console.log(`[contract later] ${h.kind}: ${pending} pending on the first page, ${later.length} judged later`);
    } finally {
      await cold.close();
    }
  });

  it('1. judges health on the store clock, and the version listed is the version inspect shows', async () => {
    const page = await store.list();
    const lock = page.locks.find((l) => l.name === h.lock);
    expect(lock, `${h.lock} listed`).toBeDefined();
    expect(Math.abs(Date.parse(page.serverTime) - store.now())).toBeLessThan(5_000);
    expect((await store.inspect(h.lock))!.version).toBe(lock!.version);
    expect(lock!.terms.storeLabel).toBeTruthy();
  });

  it('judges the holder: a verdict, one sentence leading with it, evidence as { fact, from, at }, no raw signs', async () => {
    const lock = (await store.inspect(h.lock))!;
    expect(lock.verdict).toBeDefined();
    expectJudged(lock, 'inspect');
    const listed = (await store.list()).locks.find((l) => l.name === h.lock)!;
    expect(listed.verdict).toBe(lock.verdict);
  });

  it('judges what a store built without the registry hands out: by its definition, by its exported class', async () => {
    const env = { ...process.env, ...h.env };
    const opened = await definitionOf(h.source)!.open(parseSource(h.source, env), { env, role: 'cli' });
    const built = h.direct?.();
    try {
      for (const [how, s] of [
        ['definition', opened],
        ['class', built],
      ] as const) {
        if (!s) continue;
        const { later } = await coldListing(s);
        const listed = [...(await s.list()).locks, ...later];
        for (const v of listed) expectJudged(v, `${how}: list`);
        const lock = (await s.inspect(h.lock))!;
        expect(lock.verdict, `${how}: inspect`).toBeDefined();
        expectJudged(lock, `${how}: inspect`);
      }
    } finally {
      await opened.close();
      await built?.close();
    }
  });

  it('2. never lists what is not a lock; status says "not a lock" (13); a release is refused (13) and changes nothing', async () => {
    expect((await store.list()).locks.map((l) => l.name)).not.toContain(h.notALock);
    const view = await store.inspect(h.notALock);
    expect(view?.releasable).toBe(false);
    const status = await cli('status', h.source, h.notALock);
    expect(status.stdout).toMatch(/not a lock/);
    expect(status.code).toBe(13);
    const shape = (await store.inspect(h.lock))!.version;
    const refused = await release(h.notALock, shape);
    expect(refused.code, refused.stdout + refused.stderr).toBe(13);
    expect((await store.inspect(h.notALock))?.releasable).toBe(false);
  });

  it('5. a malformed version is a usage error (2) that says what a version of this store looks like', async () => {
    await expect(
      store.forceRelease({ name: h.lock, version: 'zz', reason: 'x', operator: 'ci' }),
    ).rejects.toBeInstanceOf(VersionShapeError);
    const r = await release(h.lock, 'zz');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not a version of .*: an? .* version is/);
    expect(r.stderr).not.toMatch(/is required/);
  });

  it('4. a successor is changed (11) and kept', async () => {
    const seen = (await store.inspect(h.lock))!;
    await h.successor();
    const r = await release(h.lock, seen.version);
    expect(r.code, r.stdout + r.stderr).toBe(11);
    expect(r.stdout).toMatch(/changed hands/);
    const now = await store.inspect(h.lock);
    expect(now?.releasable).toBe(true);
    expect(now?.version).not.toBe(seen.version);
  });

  it('7. waiters in grant order; a waiter is never released (library: not-a-lock, CLI 13); releasing the holder lets the first in', async () => {
    const q = h.queue;
    if (!q) {
      // a store that queues no contenders says so: no waiters on its locks
      expect((await store.inspect(h.lock))!.waiters ?? []).toEqual([]);
      return;
    }
    await q.start();
    try {
      const seen = (await store.inspect(q.name))!;
      expect(seen.waiters!.map((w) => w.identity)).toEqual(q.order);
      for (const w of seen.waiters!) {
        const byLib = await store.forceRelease({
          name: w.key ?? q.name,
          version: w.version,
          reason: 'x',
          operator: 'ci',
        });
        expect(byLib.outcome).toBe(w.key ? 'not-a-lock' : 'changed');
        const byCli = await release(w.key ?? q.name, w.version);
        expect(byCli.code, byCli.stdout + byCli.stderr).toBe(w.key ? 13 : 11);
        if (w.key) expect(byCli.stdout).toMatch(/waiter queued for .*never releases a waiter/);
      }
      expect((await store.inspect(q.name))!.waiters!.map((w) => w.identity)).toEqual(q.order);
      const t0 = performance.now();
      expect(
        (await store.forceRelease({ name: q.name, version: seen.version, reason: 'x', operator: 'ci' })).outcome,
      ).toBe('released');
      expect(await q.holder()).toBe(q.order[0]);
      console.log(
        `[contract 7] ${h.kind}: the first waiter held ${(performance.now() - t0).toFixed(0)} ms after the release`,
      );
      expect((await store.inspect(q.name))!.waiters!.map((w) => w.identity)).toEqual(q.order.slice(1));
    } finally {
      await q.stop();
    }
  });

  it('9. a claim is created once across replicas: of two at the same moment exactly one wins; never a lock, never an event', async () => {
    const from = new Date(store.now() - 60_000);
    // a second console replica on the same store
    const other = await openSource(parseSource(h.source), { env: { ...process.env, ...h.env }, role: 'cli' });
    try {
      expect(canClaim(store) && canClaim(other), `${h.kind} keeps create-only claim markers`).toBe(true);
      const [mine, theirs] = [store, other] as ClaimingStore[];
      const key = `notify-${randomBytes(16).toString('hex')}`;
      const won = await Promise.all([mine!.claim(key), theirs!.claim(key)]);
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(await theirs!.claim(key)).toBe(false);
      expect(await mine!.claim(`notify-${randomBytes(16).toString('hex')}`)).toBe(true);
      const names: string[] = [];
      let token: string | undefined;
      do {
        const page = await store.list(token);
        names.push(...page.locks.map((l) => l.name));
        token = page.nextPageToken;
      } while (token);
      expect(names.filter((n) => /claim|notify-/.test(n))).toEqual([]);
      expect(names).toContain(h.lock);
      const trail = await store.readAudit(from, new Date(store.now() + 60_000));
      expect(trail.filter((e) => /claim|notify-/.test(`${e.id} ${e.lock}`))).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('3 and 6. released (0) clears exactly the version seen, recorded before and after; again is gone (12)', async () => {
    const from = new Date(store.now() - 60_000);
    const seen = (await store.inspect(h.lock))!;
    const r = await release(h.lock, seen.version); // byte for byte, whatever characters it holds
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await store.inspect(h.lock)).toBeNull();
    const again = await release(h.lock, seen.version);
    expect(again.code).toBe(12);
    const events = await store.readAudit(from, new Date(store.now() + 60_000), h.lock);
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['force-release-requested', 'force-released']));
    expect(events.find((e) => e.event === 'force-released')).toMatchObject({ reason: 'contract', operator: 'ci' });
    if (h.history) expect(await h.history()).toEqual(['force-released: by ci: contract']);
  });
});
