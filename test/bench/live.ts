// npm run bench -- live: the console live by push, measured in real Chromium against two console processes.
// 1. Cold first screen of a 10 000-object mixed prefix (GCS, S3) on a console started for each round (live-cold.ts)
//    vs the complete listing the page used to wait for, and `lockboard ls` vs a hand-written listing (ls.ts).
// 2. Change → on screen, p50/p95 per store, on both consoles: acquire, refresh, release, a force-release through
//    the other console.
// 3. GCS list calls per hour for one prefix: 2 s polling (today) vs the stream, with 1 and with 100 open pages.
import type { Page } from 'playwright-core';
import { s3ClientFor } from '../helpers/s3';
import { seedColdPrefixes } from './cold-seed';
import { listCalls, startLiveWorld, type LiveWorld } from './live-setup';
import { coldScreens } from './live-cold';
import { measureChanges } from './live-changes';
import { lsVsHandWritten } from './ls';
import { printTable, writeJson } from './report';

const OBJECTS = 10_000;

async function seed(w: Parameters<Parameters<typeof startLiveWorld>[0]>[0]) {
  seedColdPrefixes(w, OBJECTS);
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
    const cold = await coldScreens(w, OBJECTS);
    printTable(
      `Cold first screen of a ${OBJECTS}-object mixed prefix (goal ≤ 2 s), and the complete listing it no longer waits for`,
      cold,
    );
    const s3 = s3ClientFor(w.emulator.s3!.url);
    const ls = await lsVsHandWritten(
      {
        gcs: { storage: w.storage, bucket: 'cold', source: w.cold.gcs },
        s3: { client: s3, bucket: 'cold-s3', source: w.cold.s3 },
        env: w.env,
      },
      3,
    );
    s3.destroy();
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
