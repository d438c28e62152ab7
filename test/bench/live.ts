// npm run bench -- live: the console live by push, measured in real Chromium against two console processes.
// 1. Cold first screen of a 10 000-object mixed prefix (GCS, S3) vs the complete listing the page used to wait for,
//    and `lockboard ls` vs a hand-written listing with the official client (same bodies, same concurrency).
// 2. Change → on screen, p50/p95 per store, on both consoles: acquire, refresh, release, a force-release through
//    the other console.
// 3. GCS list calls per hour for one prefix: 2 s polling (today) vs the stream, with 1 and with 100 open pages.
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { Page } from 'playwright-core';
import { openSource } from '@/lib/lock/stores';
import { listAll } from '@/lib/lock/list-all';
import { forgetBodies } from '@/lib/lock/stores/gcs/list';
import { mapLimit } from '@/lib/lock/map-limit';
import { dataReason, needsBody } from '@/lib/lock/objects/formats';
import { LOCKBOARD_BODY_LIMIT } from '@/lib/lock/stores/s3/view';
import { objectViewOf } from '@/lib/lock/objects/inspect';
import { s3ClientFor } from '../helpers/s3';
import { mixedObject as gcsMixed } from './formats';
import { listCalls, startLiveWorld, type LiveWorld } from './live-setup';
import { measureChanges } from './live-changes';
import { printTable, quantile, round, writeJson } from './report';
import { mixedObject as s3Mixed } from './s3';

const OBJECTS = 10_000;

async function seed(w: Parameters<Parameters<typeof startLiveWorld>[0]>[0]) {
  const now = Date.now();
  for (let i = 0; i < OBJECTS; i++) {
    const [name, data, metadata] = gcsMixed(i, now);
    w.store.insertObject('cold', name, data, metadata ? { metadata } : {}, {}, now);
    const [key, body] = s3Mixed(i, now);
    w.s3!.store.put('cold-s3', key, Buffer.from(body), { contentType: 'application/json', metadata: {} }, {}, now);
  }
}

/** First screen in the browser (navigation to the first row) vs the complete JSON listing on the other console. */
async function coldScreens(w: LiveWorld) {
  const rows = [];
  for (const [store, source] of Object.entries(w.cold)) {
    const context = await w.browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addCookies([
      { name: 'next-auth.session-token', value: (await w.cookie()).split('=')[1]!, url: w.consoles[0].url },
    ]);
    const page = await context.newPage();
    let started = performance.now();
    await page.goto(`${w.consoles[0].url}/locks?source=${encodeURIComponent(source)}`);
    await page.locator('[data-lock]').first().waitFor({ timeout: 60_000 });
    const firstScreen = performance.now() - started;
    const pending = await page
      .getByTestId('pending-count')
      .textContent({ timeout: 1_000 })
      .catch(() => '');
    await page.waitForFunction(() => !document.querySelector('[data-testid="pending-count"]'), null, {
      timeout: 120_000,
    });
    const allRead = performance.now() - started;
    await context.close();
    started = performance.now();
    const res = await fetch(`${w.consoles[1].url}/api/locks?source=${encodeURIComponent(source)}`, {
      headers: { cookie: await w.cookie() },
    });
    const complete = (await res.json()) as { locks: unknown[] };
    const completeMs = performance.now() - started;
    rows.push({
      store,
      objects: OBJECTS,
      'first screen (browser) ms': round(firstScreen),
      'pending at first paint': pending?.match(/\d+/)?.[0] ?? '0',
      'every row read ms': round(allRead),
      'complete listing (before) ms': round(completeMs),
      locks: complete.locks.length,
    });
  }
  return rows;
}

/** A cold run each: the library's body cache emptied, a new store (S3 keeps its bodies per store). */
async function timed(fn: () => Promise<unknown>): Promise<number> {
  forgetBodies();
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** GCS: getFiles over every page, then the bodies a format needs, 32 at once (READ_CONCURRENCY). */
async function gcsByHand(w: LiveWorld): Promise<number> {
  const [files] = await w.storage.bucket('cold').getFiles({ prefix: 'mixed/', autoPaginate: true });
  const wanted = files.filter((f) => needsBody(objectViewOf({ ...f.metadata, name: f.name } as never)));
  await mapLimit(wanted, 32, (f) => f.download());
  return wanted.length;
}

/** S3: ListObjectsV2 over every page, then the bodies the store reads, 16 at once (the store's concurrency). */
async function s3ByHand(w: LiveWorld, s3: ReturnType<typeof s3ClientFor>): Promise<number> {
  const keys: { Key?: string; Size?: number }[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({ Bucket: 'cold-s3', Prefix: 'mixed/', ContinuationToken: token }),
    );
    keys.push(...(page.Contents ?? []));
    token = page.NextContinuationToken;
  } while (token);
  // the bodies the store reads: a small object that is not data (Lockboard's JSON body), or what a format needs
  const wanted = keys.filter((k) => {
    const size = k.Size ?? 0;
    const probe = objectViewOf({ name: k.Key!, size: String(size), generation: '1', metageneration: '1' } as never);
    if (size > 64 * 1024) return false;
    return size <= LOCKBOARD_BODY_LIMIT ? dataReason(probe) === null && !k.Key!.endsWith('/') : needsBody(probe);
  });
  await mapLimit(wanted, 16, async (k) =>
    (await s3.send(new GetObjectCommand({ Bucket: 'cold-s3', Key: k.Key }))).Body?.transformToString(),
  );
  return wanted.length;
}

/** `lockboard ls`'s listing (listAll) vs a hand-written one, cold, three runs each alternating: the medians. */
async function lsVsHandWritten(w: LiveWorld) {
  const s3 = s3ClientFor(w.emulator.s3!.url);
  const rows = [];
  for (const [store, source, byHand] of [
    ['gcs', w.cold.gcs, () => gcsByHand(w)],
    ['s3', w.cold.s3, () => s3ByHand(w, s3)],
  ] as const) {
    const hand: number[] = [];
    const ls: number[] = [];
    let bodies = 0;
    let locks = 0;
    for (let run = 0; run < 3; run++) {
      hand.push(await timed(async () => (bodies = await byHand())));
      ls.push(
        await timed(async () => {
          const opened = await openSource(w.spec(source), { env: w.env, role: 'cli' });
          locks = (await listAll(opened)).locks.length;
          await opened.close();
        }),
      );
    }
    rows.push({
      store,
      'bodies read': bodies,
      'hand-written ms (median of 3)': round(quantile(hand, 0.5)),
      'lockboard ls ms (median of 3)': round(quantile(ls, 0.5)),
      locks,
    });
  }
  s3.destroy();
  return rows;
}

/** The closing scrape of /api/metrics lists every source itself: one listing in each window that is not the pages'. */
const SCRAPE = 1;

/** GCS listings per hour of one prefix, polled every 2 s (today) or streamed, by 1 or 100 open pages. */
async function listingsPerHour(w: LiveWorld, windowMs: number) {
  const source = w.sources.gcs;
  const c = w.consoles[1];
  const cookie = await w.cookie();
  const rows = [];
  for (const pages of [1, 100]) {
    // today: every page polls GET /api/locks every 2 s (the server caches a listing for 1 s)
    let before = await listCalls(c, source);
    const stop = Date.now() + windowMs / 3;
    await Promise.all(
      Array.from({ length: pages }, async (_, i) => {
        await new Promise((r) => setTimeout(r, (i * 2_000) / pages));
        while (Date.now() < stop) {
          await fetch(`${c.url}/api/locks?source=${encodeURIComponent(source)}`, { headers: { cookie } }).then((r) =>
            r.arrayBuffer(),
          );
          await new Promise((r) => setTimeout(r, 2_000));
        }
      }),
    );
    const polled = ((await listCalls(c, source)) - before - SCRAPE) * (3_600_000 / (windowMs / 3));
    // after: every page holds one stream; the watcher lists once, then reconciles every 60 s (feed) or at its pace
    const streams = await Promise.all(
      Array.from({ length: pages }, async () => {
        const abort = new AbortController();
        const res = await fetch(`${c.url}/api/locks/stream?source=${encodeURIComponent(source)}`, {
          headers: { cookie, accept: 'text/event-stream' },
          signal: abort.signal,
        });
        void res.body?.pipeTo(new WritableStream()).catch(() => undefined);
        return abort;
      }),
    );
    await new Promise((r) => setTimeout(r, 5_000)); // the first listing when watching starts is not the steady state
    before = await listCalls(c, source);
    await new Promise((r) => setTimeout(r, windowMs));
    const streamed = ((await listCalls(c, source)) - before - SCRAPE) * (3_600_000 / windowMs);
    for (const s of streams) s.abort();
    await new Promise((r) => setTimeout(r, 500));
    rows.push({
      'open pages': pages,
      'polling (before) lists/h': Math.round(polled),
      'stream (after) lists/h': Math.round(streamed),
    });
  }
  return rows;
}

export async function benchLive() {
  const w = await startLiveWorld(seed);
  // this process opens stores too (lockboard ls): the same endpoints and credentials as the consoles
  for (const k of ['AWS_ENDPOINT_URL_S3', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION'])
    process.env[k] = w.env[k];
  try {
    console.log(
      `Pub/Sub emulator: ${w.pubsub ? 'yes (GCS has its change feed)' : 'not installed (GCS lists at its 2 s pace)'}`,
    );
    const cold = await coldScreens(w);
    printTable(
      `Cold first screen of a ${OBJECTS}-object mixed prefix (goal ≤ 2 s), and the complete listing it no longer waits for`,
      cold,
    );
    const ls = await lsVsHandWritten(w);
    printTable(
      'lockboard ls vs a hand-written listing with the official client (same bodies, same concurrency), cold',
      ls,
    );
    const pages: Record<string, [Page, Page]> = {};
    for (const [store, source] of Object.entries(w.sources))
      pages[store] = [await w.pageOn(0, source), await w.pageOn(1, source)];
    const changes = await measureChanges(w, pages, Number(process.env.LIVE_ROUNDS ?? 8));
    printTable(
      'Change → on screen in Chromium, both consoles (ms; goal p50 ≤ 1 000, p95 ≤ 2 000 for GCS with notifications, Redis, PostgreSQL)',
      changes,
    );
    // the pages close: the list calls below are those of the pages each run opens, no others
    for (const pair of Object.values(pages)) for (const p of pair) await p.context().close();
    await new Promise((r) => setTimeout(r, 1_000));
    const windowMs = Number(process.env.LIVE_WINDOW_MS ?? 125_000); // two reconciles
    const lists = await listingsPerHour(w, windowMs);
    printTable(
      `GCS listings per hour of one prefix (measured over ${windowMs / 1000} s; goal with notifications ≤ 60/h, same for 100 pages)`,
      lists,
    );
    writeJson('live', { objects: OBJECTS, pubsub: Boolean(w.pubsub), cold, ls, changes, lists });
  } finally {
    await w.stop();
  }
}
