// The live view on GCS with notifications, through Google's own Pub/Sub emulator: the bucket's notification topic is
// found by the store, every console process subscribes with its own pull subscription (so two replicas both hear
// every change) created at start-up and deleted when the process stops, the stream shows a new holder and a release from elsewhere within a second, and with the feed on a
// source is listed once when watched and then only by the 60 s reconcile, however many streams are open.
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { acquireLock } from '@/lib/lock';
import { GcsLockStore } from '@/lib/lock/stores/gcs';
import { startPubsub, type TestPubsub } from '../helpers/pubsub';
import { delay } from '../helpers/requests';
import { SECRET } from '../helpers/routes';
import { openStream } from '../helpers/stream';

const PROJECT = 'lockboard-live';
const TOPIC = `projects/${PROJECT}/topics/gcs-locks`;
let pubsub: TestPubsub;
let gcs: Emulator;
let storage: Storage;
let stream: typeof import('@/app/api/locks/stream/route');

beforeAll(async () => {
  pubsub = await startPubsub(PROJECT);
  gcs = await startEmulator({ buckets: ['live', 'quiet'], push: { pubsubEmulatorHost: pubsub.host } });
  storage = new Storage({ apiEndpoint: gcs.url, projectId: PROJECT });
  await pubsub.put(TOPIC, {});
  await storage.bucket('live').createNotification(TOPIC, { payloadFormat: 'JSON_API_V1' });
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: 'gs://live/locks/',
    LOCKBOARD_GCS_ENDPOINT: gcs.url,
    PUBSUB_EMULATOR_HOST: pubsub.host,
    LOCKBOARD_VIEWERS: 'viewer@example.com',
    NEXTAUTH_SECRET: SECRET,
  });
  stream = await import('@/app/api/locks/stream/route');
}, 180_000);

afterAll(async () => {
  await gcs?.notifications.close();
  await gcs?.close();
  pubsub?.stop();
});

const subscriptions = async () =>
  (((await pubsub.get(`projects/${PROJECT}/subscriptions`)).subscriptions ?? []) as { name: string }[])
    .map((s) => s.name)
    .filter((n) => n.includes('/lockboard-'));

describe('GCS change feed through Pub/Sub', () => {
  it('gives each process its own expiring subscription, so two replicas hear every change; none without a config', async () => {
    const replica = () =>
      new GcsLockStore({ storage, bucket: 'live', prefix: 'locks/', pubsubEmulatorHost: pubsub.host });
    const heard: string[][] = [[], []];
    const feeds = await Promise.all(
      [0, 1].map((i) => replica().changes({ changed: (n) => heard[i]!.push(...n), missed: () => undefined })),
    );
    expect(feeds.map((f) => f?.description)).toEqual([`Pub/Sub ${TOPIC}`, `Pub/Sub ${TOPIC}`]);
    const subs = await subscriptions();
    expect(subs).toHaveLength(2);
    const sub = await pubsub.get(subs[0]!.replace(/^\//, ''));
    expect(sub.expirationPolicy).toEqual({ ttl: '86400s' });

    const lock = await acquireLock({ storage, bucket: 'live', name: 'locks/deploy', ttlMs: 30_000, audit: false });
    await storage.bucket('live').file('other/data.json').save('{}'); // outside the source's prefix
    for (let i = 0; i < 100 && !(heard[0]!.length && heard[1]!.length); i++) await delay(20);
    expect(heard).toEqual([['locks/deploy'], ['locks/deploy']]);
    await lock.release();
    for (let i = 0; i < 100 && heard[1]!.length < 2; i++) await delay(20);
    expect(heard[1]).toEqual(['locks/deploy', 'locks/deploy']);

    await Promise.all(feeds.map((f) => f!.stop()));
    expect(await subscriptions()).toEqual([]); // deleted at stop
    const quiet = new GcsLockStore({ storage, bucket: 'quiet', pubsubEmulatorHost: pubsub.host });
    expect(await quiet.changes({ changed: () => undefined, missed: () => undefined })).toBeNull();
  });

  it('subscribes at start-up, before anyone watches', async () => {
    const { prepareWatchers } = await import('@/lib/server/live/watch');
    const { sources } = await import('@/lib/server/sources');
    expect(await subscriptions()).toEqual([]);
    prepareWatchers(sources());
    const deadline = Date.now() + 10_000;
    while ((await subscriptions()).length === 0 && Date.now() < deadline) await delay(100);
    expect(await subscriptions()).toHaveLength(1);
  });

  it('streams a change made elsewhere within a second, listing the source once for ten streams', async () => {
    gcs.requests.clear();
    const streams = await Promise.all(Array.from({ length: 10 }, () => openStream(stream.GET, 'viewer@example.com')));
    await Promise.all(streams.map((s) => s.next('snapshot')));
    const started = Date.now();
    const lock = await acquireLock({ storage, bucket: 'live', name: 'locks/build', ttlMs: 30_000, audit: false });
    const added = await Promise.all(streams.map((s) => s.next('change', 2_000)));
    expect(added.map((c) => (c.upsert as { name: string }[]).map((l) => l.name))).toEqual(
      Array.from({ length: 10 }, () => ['locks/build']),
    );
    const addedMs = Date.now() - started;
    await lock.release(); // a release by the holder, not through this console
    const removed = await streams[0]!.next('change', 2_000);
    expect(removed.remove).toEqual(['locks/build']);
    expect(addedMs).toBeLessThan(1_000);
    await delay(3_000); // without a feed GCS's pace would list again every 2 s
    // listings of the source's own prefix (a signed-in request may also read the trail's recent sign-outs)
    const lists = gcs.requests.count(
      (e) => e.method === 'GET' && e.path === '/storage/v1/b/live/o' && !e.query.prefix?.startsWith('.lockboard/'),
    );
    expect(lists).toBe(1);
    await Promise.all(streams.map((s) => s.close()));
  });

  it("keeps this replica's subscription while nobody watches, and deletes it when the process stops", async () => {
    await delay(500);
    expect(await subscriptions()).toHaveLength(1); // the streams above closed; the next watcher has it at once
    const { closeWatchers } = await import('@/lib/server/live/watch');
    await closeWatchers();
    expect(await subscriptions()).toEqual([]);
  });
});
