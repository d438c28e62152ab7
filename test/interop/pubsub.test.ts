// GCS notifications through Google's own Pub/Sub emulator (gcloud beta emulators pubsub start): the GCS emulator
// publishes each change to the topic its notification config names, a push subscription delivers it to the console
// in the envelope real Pub/Sub sends, and the console records each change once although every change is published
// twice (as GCS may) and Pub/Sub redelivers what the console refused.
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { acquireLock, listAuditEvents, type AuditRecord } from '@/lib/lock';
import { buildConsole, needsBuild, startConsole, type ConsoleProcess } from '@/lib/demo/console';
import { freePort } from '../helpers/browser';
import { startPubsub, type TestPubsub } from '../helpers/pubsub';
import { delay } from '../helpers/requests';
import { writeTerraformLock } from '../helpers/writers';

const PROJECT = 'lockboard-interop';
const TOPIC = `projects/${PROJECT}/topics/gcs-locks`;
const TOKEN = 'pubsub-push-token-0123456789';
let pubsub: TestPubsub;
let gcs: Emulator;
let app: ConsoleProcess;
let storage: Storage;

beforeAll(async () => {
  if (needsBuild()) buildConsole();
  pubsub = await startPubsub(PROJECT);
  gcs = await startEmulator({
    buckets: ['tf-state'],
    push: { pubsubEmulatorHost: pubsub.host, duplicateRate: 1 },
  });
  storage = new Storage({ apiEndpoint: gcs.url, projectId: PROJECT });
  app = await startConsole(await freePort(), {
    LOCKBOARD_DEMO: '1',
    NEXTAUTH_SECRET: 'pubsub-interop-secret-0123456789',
    LOCKBOARD_SOURCES: 'gs://tf-state/',
    LOCKBOARD_GCS_ENDPOINT: gcs.url,
    LOCKBOARD_PUSH_TOKEN: TOKEN,
  });
  await pubsub.put(TOPIC, {});
  await pubsub.put(`projects/${PROJECT}/subscriptions/lockboard-console`, {
    topic: TOPIC,
    pushConfig: { pushEndpoint: `${app.url}/api/gcs-events?token=${TOKEN}` },
    ackDeadlineSeconds: 10,
  });
  await storage.bucket('tf-state').createNotification(TOPIC, { payloadFormat: 'JSON_API_V1' });
}, 180_000);

afterAll(async () => {
  await gcs?.notifications.close();
  await app?.stop();
  await gcs?.close();
  pubsub?.stop();
});

async function eventsOf(
  lock: string,
  want: (events: AuditRecord[]) => boolean,
  waitMs = 30_000,
): Promise<AuditRecord[]> {
  let events: AuditRecord[] = [];
  for (const end = Date.now() + waitMs; Date.now() < end;) {
    ({ events } = await listAuditEvents({
      storage,
      bucket: 'tf-state',
      auditPrefix: '.lockboard/audit/',
      from: new Date(Date.now() - 3_600_000),
      to: new Date(Date.now() + 60_000),
      lock,
    }));
    if (want(events)) break;
    await delay(500);
  }
  return events;
}

const kinds = (events: AuditRecord[]) => events.map((e) => e.event).sort();

describe('GCS notifications through the Pub/Sub emulator', () => {
  it('delivers a Terraform lock taken and released, published twice each, as one observed event per change', async () => {
    await writeTerraformLock(storage, 'tf-state', 'prod/default.tfstate', 'ann@laptop');
    // held until the console saw it (it reads the body then; after the delete only its cached copy could tell who)
    await eventsOf('prod/default.tflock', (e) => e.length >= 1);
    await storage.bucket('tf-state').file('prod/default.tflock').delete();
    const events = await eventsOf('prod/default.tflock', (e) => e.length >= 2);
    // a second publication of either change would have shown up by now: give it the same time again
    await delay(3000);
    const settled = await eventsOf('prod/default.tflock', () => true);
    expect(kinds(settled)).toEqual(['observed-created', 'observed-deleted']);
    expect(settled.every((e) => e.format === 'terraform' && e.identity === 'ann@laptop')).toBe(true);
    expect(events.length).toBe(2);
    // Two publications per change went through Pub/Sub
    expect(gcs.notifications.stats.delivered).toBeGreaterThanOrEqual(4);
  });

  it('records a Lockboard lock deleted by hand as deleted-outside once, after Pub/Sub redelivers past the grace', async () => {
    const held = await acquireLock({
      storage,
      bucket: 'tf-state',
      name: 'jobs/nightly',
      identity: 'cron-1',
      audit: false,
    });
    await storage.bucket('tf-state').file('jobs/nightly').delete(); // by hand, no Lockboard release recorded
    await held.release().catch(() => undefined);
    // The console answers 503 within its 15 s grace; Pub/Sub retries with backoff until it is accepted
    const events = await eventsOf('jobs/nightly', (e) => e.some((x) => x.event === 'deleted-outside'), 100_000);
    expect(kinds(events)).toEqual(['deleted-outside', 'observed-created', 'observed-deleted']);
  }, 150_000);
});
