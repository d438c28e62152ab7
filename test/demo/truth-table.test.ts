// Every sentence true for the store it is about: the demo's holders on every store (GCS and S3 in the emulator, its
// redis-server, its PostgreSQL, its DynamoDB), listed through the registry, and every lock's page and release
// dialog read as text (lib/console/lock-facts.ts, what the components render) in every health. No GCS-only sentence on
// another store, no field shown twice, and a format that is never refreshed is never called alive.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoDynamo, type DemoDynamo } from '@/lib/demo/dynamodb';
import { startDemoFiles, type DemoFiles } from '@/lib/demo/files';
import { startDemoKube, type DemoKube } from '@/lib/demo/kubernetes';
import { startDemoZooKeeper, type DemoZooKeeper } from '@/lib/demo/zookeeper';
import { startHolders, type Holders } from '@/lib/demo/holders';
import { PLATFORM_BUCKET } from '@/lib/demo/platform';
import { startDemoPostgres, type DemoPostgres } from '@/lib/demo/postgres';
import { startDemoRedis, type DemoRedis } from '@/lib/demo/redis';
import { S3_BUCKET } from '@/lib/demo/s3';
import { Stopper } from '@/lib/demo/stopper';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { HEALTHS } from '@/lib/console/health';
import { detailFacts, dialogFacts, dialogSentences, healthChange } from '@/lib/console/lock-facts';
import type { LockView } from '@/lib/lock/store';
import { openSource, parseSource } from '@/lib/lock/stores';
import { freePort } from '../helpers/browser';

const GCS_ONLY = /refreshing on schedule|metageneration|audit prefix/i;
/** Formats whose holders never refresh or extend anything: nothing may call them alive. */
const NEVER_REFRESHED = new Set([
  'terraform',
  'pulumi',
  'plain',
  'laravel',
  'setnx',
  'sidekiq-unique-jobs',
  'liquibase',
]);

const stopper = new Stopper();
const dataDir = mkdtempSync(join(tmpdir(), 'lockboard-truth-'));
chmodSync(dataDir, 0o755); // initdb runs as the postgres user when the tests run as root
let emulator: Emulator;
let holders: Holders;
let redis: DemoRedis | null;
let postgres: DemoPostgres | null;
let dynamo: DemoDynamo;
let files: DemoFiles;
let kube: DemoKube | null;
let zk: DemoZooKeeper | null;
const locks: LockView[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ buckets: ['lockboard-demo', PLATFORM_BUCKET], s3: { port: 0 } });
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'demo' });
  const credentials = { accessKeyId: 'demo', secretAccessKey: 'demo' };
  const s3 = new S3Client({ region: 'us-east-1', endpoint: emulator.s3!.url, forcePathStyle: true, credentials });
  holders = await startHolders(storage, 'lockboard-demo', { s3, speed: 4 });
  redis = await startDemoRedis(await freePort(), stopper);
  postgres = await startDemoPostgres(dataDir, await freePort(), stopper);
  dynamo = await startDemoDynamo(await freePort(), stopper);
  // the stores the demo starts only where their servers are installed (a built kube-apiserver, ZooKeeper)
  [files, kube, zk] = await Promise.all([
    startDemoFiles(dataDir, stopper),
    startDemoKube(dataDir, await freePort(), stopper),
    startDemoZooKeeper(await freePort(), stopper),
  ]);
  if (!redis || !postgres)
    throw new Error('This test needs redis-server and PostgreSQL (apt-get install -y redis-server postgresql).');
  await new Promise((r) => setTimeout(r, 1_500)); // the holders' first rounds
  // the AWS SDK reads its credentials from the process environment
  const env = Object.assign(process.env, {
    LOCKBOARD_GCS_ENDPOINT: emulator.url,
    AWS_ENDPOINT_URL_S3: emulator.s3!.url,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'demo',
    AWS_SECRET_ACCESS_KEY: 'demo',
    ...(kube?.env ?? {}),
  });
  const sources = [
    'gs://lockboard-demo/locks/',
    'gs://lockboard-demo/ci/',
    `gs://${PLATFORM_BUCKET}/`,
    `s3://${S3_BUCKET}/`,
    redis.url,
    postgres.url,
    ...dynamo.sources,
    files.url,
    ...(kube ? [kube.source] : []),
    ...(zk ? [zk.url] : []),
  ];
  for (const source of sources) {
    const store = await openSource(parseSource(source, env), { env, role: 'cli', longHeldMs: 600_000 });
    try {
      locks.push(...(await store.list()).locks);
    } finally {
      await store.close();
    }
  }
}, 60_000);

afterAll(async () => {
  stopper.stop();
  await Promise.allSettled([holders?.stop(), redis?.stop(), postgres?.stop(), dynamo?.stop()]);
  await Promise.allSettled([files?.stop(), kube?.stop(), zk?.stop()]);
  // as the demo's own stop: a loop blocked on a stopped server's query is not waited for past 2 s
  const loops = [redis, postgres, dynamo, files, zk].flatMap((d) => d?.loops ?? []);
  await Promise.race([Promise.allSettled(loops), new Promise((r) => setTimeout(r, 2_000))]);
  await emulator?.close();
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

/** Everything a person reads about `lock` on its page and in its release dialog. */
function read(lock: LockView) {
  const now = Date.now();
  const detail = detailFacts(lock, now);
  const dialog = dialogFacts(lock, now);
  const { rule, safe } = dialogSentences(lock);
  const words = [...detail, ...dialog].flatMap((f) => [f.label, f.text]);
  return { detail, dialog, text: [...words, rule, safe, healthChange(lock)].join('\n') };
}

describe("the demo's locks, in their own store's words", () => {
  it('walks every store and format the demo holds', () => {
    const stores = new Set(locks.map((l) => l.store));
    const started = ['dynamodb', 'files', 'gcs', 'postgres', 'redis', 's3', ...(kube ? ['kubernetes'] : [])];
    expect([...stores].sort()).toEqual([...started, ...(zk ? ['zookeeper'] : [])].sort());
    const formats = new Set(locks.map((l) => `${l.store}/${l.format}`));
    expect(formats.size).toBeGreaterThanOrEqual(15);
    for (const lock of locks) expect(lock.terms.health, `${lock.store}/${lock.format} has a truth table`).toBeDefined();
  });

  it('never shows a GCS-only sentence on another store, in any health', () => {
    for (const lock of locks.filter((l) => l.store !== 'gcs'))
      for (const health of HEALTHS) {
        const { text } = read({ ...lock, health });
        expect(text, `${lock.store}/${lock.format} (${health}) ${lock.name}`).not.toMatch(GCS_ONLY);
      }
  });

  it('never shows a field twice on the page or in the dialog', () => {
    for (const lock of locks) {
      const { detail, dialog } = read(lock);
      for (const [where, facts] of [
        ['page', detail],
        ['dialog', dialog],
      ] as const) {
        const labels = facts.map((f) => f.label);
        const twice = labels.filter((l, i) => labels.indexOf(l) !== i);
        expect(twice, `${lock.store}/${lock.format} ${where} of ${lock.name}`).toEqual([]);
      }
    }
  });

  it('never calls a lock that is never refreshed alive or refreshing', () => {
    const never = locks.filter((l) => NEVER_REFRESHED.has(l.format) || l.health === 'unknown');
    expect(new Set(never.map((l) => l.store)).size).toBeGreaterThanOrEqual(4);
    for (const lock of never) {
      if (lock.format === 'terraform') expect(['unknown', 'long-held']).toContain(lock.health);
      for (const health of HEALTHS) {
        const { text } = read({ ...lock, health });
        const claims = text
          .split('\n')
          .filter((s) => /\balive\b|\bis (refreshing|extending|rewriting|heartbeating)\b/i.test(s));
        expect(claims, `${lock.store}/${lock.format} (${health}) ${lock.name}`).toEqual([]);
      }
    }
  });
});
