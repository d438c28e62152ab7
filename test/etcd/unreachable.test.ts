// Issue #62: an etcd server that goes away under an open source (a TCP proxy drops every connection and refuses new
// ones): the listing fails as unavailable in the console's judgement (store-errors.ts: etcd3's errors carry no code:
// gRPC's UNAVAILABLE, or its circuit breaker open), never with an uncaught throw, and lists again once it is back.
import { afterAll, describe, expect, it } from 'vitest';
import type { LockStore } from '@/lib/lock/store';
import { storeUnavailable } from '@/lib/lock/store-errors';
import { openSource, parseSource } from '@/lib/lock/stores';
import { startEtcd, type TestEtcd } from '../helpers/etcd';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';

let etcd: TestEtcd | undefined;
let proxy: TcpProxy | undefined;
let store: LockStore | undefined;
const uncaught: unknown[] = [];
const note = (err: unknown) => uncaught.push(err);
afterAll(async () => {
  process.removeListener('uncaughtException', note);
  process.removeListener('unhandledRejection', note);
  await store?.close?.();
  await proxy?.stop();
  await etcd?.stop();
});

describe('an etcd server that goes away and comes back', () => {
  it('fails the listing as unavailable while it is away, then lists again', async () => {
    process.on('uncaughtException', note);
    process.on('unhandledRejection', note);
    etcd = await startEtcd();
    proxy = await startTcpProxy(etcd.endpoint);
    store = await openSource(parseSource(`etcd://${proxy.address}/`), { role: 'console', env: {} });
    await store.list();
    const cut = proxy.cut(4_000);
    await new Promise((r) => setTimeout(r, 200));
    const errors: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      errors.push(
        await store.list().then(
          () => 'listed',
          (e: unknown) => e,
        ),
      );
      await new Promise((r) => setTimeout(r, 300));
    }
    for (const err of errors.filter((e) => e !== 'listed')) expect(storeUnavailable(err), String(err)).toBeTruthy();
    expect(errors.filter((e) => e !== 'listed').length).toBeGreaterThan(0);
    await cut;
    await expect
      .poll(
        () =>
          store!.list().then(
            () => true,
            () => false,
          ),
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    expect(uncaught).toEqual([]);
  }, 60_000);
});
