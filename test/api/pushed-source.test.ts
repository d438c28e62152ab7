// A GCS source whose notifications are pushed to /api/gcs-events (no Pub/Sub feed: the demo's case), watched by an
// open lock stream: polled every 2 s until its first push, then listed only as a check every LOCKBOARD_RECONCILE
// (5 s here, 60 s by default: PUSHED_SOURCE_CHECK_MS=60000 measures at that pace, in about 7 minutes) while changes
// still show within a second; when the push route becomes unreachable a check finds locks no push announced and the
// source is polled again, saying so; once pushes come back and a check interval passes with nothing missed, it is
// pushed again. Listings are counted by lockboard_store_lists_total; the label is read from the watcher's state, as
// the route reports it, without a query (which lists a small source again).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, type Lock } from '@/lib/lock/stores/gcs';
import { liveLabel, spanWords } from '@/lib/console/live-label';
import type { SourceStateData } from '@/lib/console/queries';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { labelWithin as waitForLabel, sourceLabel } from '../helpers/live-label';
import { openStream } from '../helpers/stream';

const TOKEN = 'push-token-0123456789abcdef';
const VIEWER = 'dev@viewers.example';
const SOURCE = 'gs://test-bucket/live/';
const CHECK_MS = Number(process.env.PUSHED_SOURCE_CHECK_MS) || 5_000;
const CHECKED = spanWords(CHECK_MS);
let t: Target;
let routes: Routes;
let events: typeof import('@/app/api/gcs-events/route');
let metrics: typeof import('@/lib/server/metrics/metrics').metrics;

/** Stands in for Pub/Sub's push subscription: passes each notification to the route, or, made unreachable, drops it. */
let reachable = true;
const receiver = createServer((req, res) => {
  if (!reachable) return void req.socket.destroy();
  let raw = '';
  req.on('data', (d: Buffer) => (raw += d.toString()));
  req.on('end', () => {
    const headers = { 'content-type': 'application/json' };
    void call(events.POST, req.url!, { method: 'POST', rawBody: raw, headers }).then((r) =>
      res.writeHead(r.status).end(),
    );
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/gcs-events`;
  t = await startTestEmulator({ push: { endpoint, token: TOKEN } });
  Object.assign(process.env, {
    LOCKBOARD_BUCKET: t.bucket,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    LOCKBOARD_PREFIXES: 'live/',
    LOCKBOARD_VIEWERS: '@viewers.example',
    LOCKBOARD_PUSH_TOKEN: TOKEN,
    LOCKBOARD_RECONCILE: `${CHECK_MS / 1000}s`,
    LOCKBOARD_STREAM_MAX: '30m',
    LOCKBOARD_METRICS_TOKEN: 'metrics-token-0123456789',
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_SOURCES;
  routes = await importRoutes();
  events = await import('@/app/api/gcs-events/route');
  ({ metrics } = await import('@/lib/server/metrics/metrics'));
});
afterAll(async () => {
  await t?.close();
  receiver.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** This replica's listings of the source so far (lockboard_store_lists_total), read without a query's own listing. */
async function lists(): Promise<number> {
  const { values } = await metrics.lists.get();
  return values.find((v) => v.labels.source === SOURCE)?.value ?? 0;
}

/** The source's mode in the page's words, as GET /api/locks answers it (the query lists a polled source again). */
async function routeLabel(): Promise<string> {
  const r = await call(routes.locks.GET, '/api/locks', { as: VIEWER });
  const state = (r.json.sources as SourceStateData[]).find((s) => s.source === SOURCE)!;
  return liveLabel(state.live!);
}

const labelWithin = (ms: number, wanted: RegExp) => waitForLabel(SOURCE, ms, wanted);

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1]!;
const take = (name: string) => acquireLock({ storage: t.storage, bucket: t.bucket, name, ttlMs: 60_000, audit: false });

type Stream = Awaited<ReturnType<typeof openStream>>;

/** Locks taken in turn (the one before released), each timed from its write to its row on the stream. */
async function churn(s: Stream, held: Lock, names: (i: number) => string, until: (i: number) => boolean) {
  const shownMs: number[] = [];
  for (let i = 0; until(i); i++) {
    const next = await take(names(i));
    const wrote = Date.now();
    await s.shown(names(i), 3_000);
    shownMs.push(Date.now() - wrote);
    await held.release();
    held = next;
    await sleep(700);
  }
  return { held, shownMs };
}

/** No notification config yet: nothing is pushed, the source is polled at GCS's pace (listings in 6 s). */
async function polledBeforeAnyPush(): Promise<number> {
  expect(await routeLabel()).toBe('polled every 2 s: no pushes yet');
  const before = await lists();
  await sleep(6_000);
  return (await lists()) - before;
}

/** The push route unreachable while locks change: a check finds them, and the source is polled again. */
async function cutTheRoute(s: Stream, held: Lock): Promise<Lock> {
  reachable = false;
  const cut = Date.now();
  for (let i = 0; i < 3; i++) {
    await held.release();
    held = await take(`live/unpushed-${i}`);
    await sleep(1_000);
  }
  const polled = await labelWithin(CHECK_MS + 4_000, /^polled every 2 s: (pushes missed \d+ changes?|no pushes for)/);
  console.log(`route unreachable: "${polled.label}" ${Date.now() - cut} ms after the cut`);
  expect(Date.now() - cut, 'polled again within a check interval and its settling').toBeLessThan(CHECK_MS + 7_000);
  await s.shown('live/unpushed-2', 3_000); // found by a listing
  const before = await lists();
  await sleep(6_000);
  const polledAgain = (await lists()) - before;
  console.log(`polled again: ${polledAgain} listings in 6 s`);
  expect(polledAgain, 'lists in 6 s, polled again').toBeGreaterThanOrEqual(2);
  await labelWithin(CHECK_MS, /^polled every 2 s: no pushes for \d+ (s|min)$/);
  return held;
}

async function metricsText(): Promise<string> {
  const headers = { authorization: 'Bearer metrics-token-0123456789' };
  return (await routes.metrics.GET(new Request('http://console.test/api/metrics', { headers }))).text();
}

describe('a source whose changes are pushed to /api/gcs-events', () => {
  it(
    'is listed only as a check while pushes come, and polled again, saying so, when the push route goes away',
    async () => {
      const s = await openStream(routes.stream.GET, VIEWER);
      await s.next('snapshot');
      const polledBefore = await polledBeforeAnyPush();
      expect(polledBefore, 'lists in 6 s, polled').toBeGreaterThanOrEqual(2);

      await t.storage.bucket(t.bucket).createNotification('projects/test/topics/locks', {
        eventTypes: ['OBJECT_FINALIZE', 'OBJECT_DELETE'],
        payloadFormat: 'JSON_API_V1',
      });
      const first = await take('live/first');
      await s.shown('live/first');
      expect((await labelWithin(3_000, /^pushed /)).label).toBe(
        `pushed (notifications to /api/gcs-events) · checked every ${CHECKED}`,
      );

      // pushes keep coming: each change shows at once; the source is listed once a check interval. Ten names in turn:
      // the window keeps a place for each name it showed (a new one past its limit is offered as "+1 new" instead)
      const before = await lists();
      const startedAt = Date.now();
      const pushed = await churn(
        s,
        first,
        (i) => `live/pushed-${i % 10}`,
        () => Date.now() - startedAt < 3 * CHECK_MS,
      );
      const pushedLists = (await lists()) - before;
      const seconds = (Date.now() - startedAt) / 1000;
      const [p50, p95] = [percentile(pushed.shownMs, 50), percentile(pushed.shownMs, 95)];
      console.log(
        `polled: ${polledBefore} listings in 6 s; pushed: ${pushedLists} in ${seconds.toFixed(1)} s ` +
          `(${((pushedLists * 60) / seconds).toFixed(1)} a minute); ${pushed.shownMs.length} changes shown after p50 ${p50} ms, p95 ${p95} ms`,
      );
      expect(pushedLists, 'one listing per check interval').toBeLessThanOrEqual(
        Math.ceil((seconds * 1000) / CHECK_MS) + 1,
      );
      expect(p50).toBeLessThan(1_000);
      expect(p95).toBeLessThan(2_000);
      expect(await sourceLabel(SOURCE)).toMatch(/^pushed /);
      // a query and a metrics scrape are answered from the index while pushes are trusted: no listing of their own
      const quiet = await lists();
      expect(await routeLabel()).toMatch(/^pushed /);
      await metricsText();
      expect(await lists(), 'listings by a query and a scrape').toBe(quiet);

      const held = await cutTheRoute(s, pushed.held);
      // the route is back: once pushes come and a check interval passes with nothing missed, the source is pushed again
      reachable = true;
      const back = await churn(
        s,
        held,
        (i) => `live/back-${i}`,
        (i) => i < 4,
      );
      await labelWithin(2 * CHECK_MS + 3_000, /^pushed /);
      await back.held.release();
      await sleep(2_500); // the pass under way at the store's pace schedules the next at the check's
      await s.close();

      const text = await metricsText();
      expect(text).toMatch(/lockboard_store_lists_total\{store="gcs",source="gs:\/\/test-bucket\/live\/"\} [1-9]/);
      const pace = `lockboard_watch_interval_seconds{store="gcs",source="${SOURCE}",mode="pushed"} ${CHECK_MS / 1000}\n`;
      expect(text).toContain(pace);
    },
    90_000 + 10 * CHECK_MS,
  );
});
