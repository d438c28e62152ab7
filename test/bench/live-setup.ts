// The live benchmark's world: the emulator (GCS publishing to Google's Pub/Sub emulator where it is installed, and
// S3), Redis with keyspace notifications on, PostgreSQL, and two production console processes on the same sources,
// each with a signed-in Chromium page per source.
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { Storage } from '@google-cloud/storage';
import { encode } from 'next-auth/jwt';
import type { Browser, Page } from 'playwright-core';
import { buildConsole, needsBuild, startConsole, type ConsoleProcess } from '@/lib/demo/console';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { parseSource, type SourceSpec } from '@/lib/lock/stores';
import { freePort, launchBrowser } from '../helpers/browser';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { startPubsub, type TestPubsub } from '../helpers/pubsub';
import { startRedis, type TestRedis } from '../helpers/redis';
import { s3ClientFor } from '../helpers/s3';
import { hasTool } from '../helpers/tools';

export const SECRET = 'live-bench-secret-0123456789abcdef';
export const OPERATOR = 'bench@example.com';
export const METRICS_TOKEN = 'live-bench-metrics-0123456789';
const PROJECT = 'lockboard-live-bench';

export interface LiveWorld {
  emulator: Emulator;
  storage: Storage;
  pubsub: TestPubsub | null;
  redis: TestRedis;
  pg: TestPostgres;
  consoles: [ConsoleProcess, ConsoleProcess];
  browser: Browser;
  /** The watched sources, by store. */
  sources: Record<'gcs' | 's3' | 'redis' | 'postgres', string>;
  /** The cold 10 000-object sources (GCS, S3). */
  cold: { gcs: string; s3: string };
  env: Record<string, string>;
  spec(source: string): SourceSpec;
  cookie(): Promise<string>;
  pageOn(consoleIndex: 0 | 1, source: string): Promise<Page>;
  stop(): Promise<void>;
}

export async function startLiveWorld(seed: (emulator: Emulator) => Promise<void>): Promise<LiveWorld> {
  if (needsBuild()) buildConsole();
  const pubsub = hasTool('pubsub-emulator') ? await startPubsub(PROJECT) : null;
  const emulator = await startEmulator({
    buckets: ['live', 'cold'],
    s3: {},
    ...(pubsub ? { push: { pubsubEmulatorHost: pubsub.host } } : {}),
  });
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: PROJECT });
  const s3 = s3ClientFor(emulator.s3!.url);
  for (const b of ['live-s3', 'cold-s3']) await s3.send(new CreateBucketCommand({ Bucket: b }));
  if (pubsub) {
    await pubsub.put(`projects/${PROJECT}/topics/gcs`, {});
    await storage.bucket('live').createNotification(`projects/${PROJECT}/topics/gcs`, { payloadFormat: 'JSON_API_V1' });
  }
  await seed(emulator);
  const [redis, pg] = await Promise.all([startRedis(['--notify-keyspace-events', 'Kg$hx']), startPostgres()]);
  const urls = {
    gcs: 'gs://live/locks/',
    s3: 's3://live-s3/locks/',
    redis: `redis://127.0.0.1:${redis.port}/0?match=lock:*`,
    postgres: `postgres://postgres@127.0.0.1:${pg.port}/postgres`,
  };
  const cold = { gcs: 'gs://cold/mixed/', s3: 's3://cold-s3/mixed/' };
  const env: Record<string, string> = {
    LOCKBOARD_SOURCES: [...Object.values(urls), cold.gcs, cold.s3].join(','),
    LOCKBOARD_GCS_ENDPOINT: emulator.url,
    AWS_ENDPOINT_URL_S3: emulator.s3!.url,
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_REGION: 'us-east-1',
    NEXTAUTH_SECRET: SECRET,
    LOCKBOARD_OPERATORS: OPERATOR,
    LOCKBOARD_METRICS_TOKEN: METRICS_TOKEN,
    ...(pubsub ? { PUBSUB_EMULATOR_HOST: pubsub.host } : {}),
  };
  // each source as the console names it (a PostgreSQL URL without its user)
  const ids = Object.entries(urls).map(([k, url]) => [k, parseSource(url, env).id]);
  const sources = Object.fromEntries(ids) as typeof urls;
  const consoles: [ConsoleProcess, ConsoleProcess] = [
    await startConsole(await freePort(), env),
    await startConsole(await freePort(), env),
  ];
  const browser = await launchBrowser();
  const cookie = () => encode({ token: { email: OPERATOR, name: OPERATOR, sub: OPERATOR }, secret: SECRET });
  return {
    emulator,
    storage,
    pubsub,
    redis,
    pg,
    consoles,
    browser,
    sources,
    cold,
    env,
    spec: (source) => parseSource(Object.values(urls).find((u) => parseSource(u, env).id === source) ?? source, env),
    cookie: async () => `next-auth.session-token=${await cookie()}`,
    async pageOn(i, source) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      await context.addCookies([{ name: 'next-auth.session-token', value: await cookie(), url: consoles[i].url }]);
      const page = await context.newPage();
      await page.goto(`${consoles[i].url}/locks?source=${encodeURIComponent(source)}`);
      await page.waitForFunction(
        () => document.querySelector('[data-testid="updated"]')?.textContent === 'live',
        null,
        {
          timeout: 30_000,
        },
      );
      return page;
    },
    async stop() {
      await browser.close().catch(() => undefined);
      await Promise.all(consoles.map((c) => c.stop()));
      await emulator.close();
      await redis.stop();
      await pg.stop();
      pubsub?.stop();
      s3.destroy();
    },
  };
}

/** A console's counter of listings of one source, from its own /api/metrics. */
export async function listCalls(console: ConsoleProcess, source: string): Promise<number> {
  const res = await fetch(`${console.url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  let n = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('lockboard_store_lists_total{') && line.includes(`source="${source}"`))
      n += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return n;
}
