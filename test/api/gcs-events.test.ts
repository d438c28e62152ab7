// POST /api/gcs-events: Pub/Sub push deliveries of Cloud Storage notifications become observed audit events, once,
// whatever the redeliveries; unauthenticated pushes write nothing; malformed ones are 400.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, type AuditRecord } from '@/lib/lock';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { writeTerraformLock, writeTerraformState } from '../helpers/writers';

const TOKEN = 'push-token-0123456789abcdef';
let t: Target;
let routes: Routes;
let events: typeof import('@/app/api/gcs-events/route');
const VIEWER = 'dev@viewers.example';

/** Stands in for Pub/Sub's push to the console: refuses each message's first delivery (500), passes the rest on. */
const seenMessages = new Set<string>();
const forwarded: { status: number; body: Record<string, unknown> }[] = [];
const receiver = createServer((req, res) => {
  let raw = '';
  req.on('data', (d: Buffer) => (raw += d.toString()));
  req.on('end', () => {
    const body = JSON.parse(raw) as { message: { messageId: string } };
    if (!seenMessages.has(body.message.messageId)) {
      seenMessages.add(body.message.messageId);
      res.writeHead(500).end();
      return;
    }
    void call(events.POST, req.url!, {
      method: 'POST',
      rawBody: raw,
      headers: { 'content-type': 'application/json' },
    }).then((r) => {
      forwarded.push({ status: r.status, body: r.json });
      res.writeHead(r.status).end();
    });
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/gcs-events`;
  t = await startTestEmulator({
    push: { endpoint, token: TOKEN, duplicateRate: 0.5, dropRate: 0.3, delayMs: [0, 50], seed: 3 },
  });
  Object.assign(process.env, {
    LOCKBOARD_BUCKET: t.bucket,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    LOCKBOARD_PREFIXES: 'locks/,tf/',
    LOCKBOARD_VIEWERS: '@viewers.example',
    LOCKBOARD_PUSH_TOKEN: TOKEN,
    NEXTAUTH_SECRET: SECRET,
  });
  routes = await importRoutes();
  events = await import('@/app/api/gcs-events/route');
});
afterAll(async () => {
  await t.close();
  receiver.close();
});

/** The Pub/Sub push body GCS sends for a change of `object` (payload JSON_API_V1). */
function pushOf(
  eventType: string,
  object: Record<string, unknown>,
  extra: Record<string, string> = {},
  publishTime = new Date(),
) {
  return {
    message: {
      attributes: {
        eventType,
        bucketId: t.bucket,
        objectId: String(object.name),
        objectGeneration: String(object.generation),
        payloadFormat: 'JSON_API_V1',
        notificationConfig: `projects/_/buckets/${t.bucket}/notificationConfigs/1`,
        ...extra,
      },
      data: Buffer.from(JSON.stringify(object)).toString('base64'),
      messageId: String(Math.random()).slice(2),
      publishTime: publishTime.toISOString(),
    },
    subscription: 'projects/p/subscriptions/lockboard',
  };
}

const deliver = (body: unknown, token = TOKEN) =>
  call(events.POST, `/api/gcs-events?token=${token}`, { method: 'POST', body, headers: { origin: 'https://pubsub' } });

async function auditOf(lock: string): Promise<AuditRecord[]> {
  const r = await call(routes.audit.GET, `/api/audit?lock=${encodeURIComponent(lock)}`, { as: VIEWER });
  expect(r.status).toBe(200);
  return r.json.events as AuditRecord[];
}

describe('POST /api/gcs-events', () => {
  it('turns a Terraform lock created and deleted into observed events with its format; the .tfstate is ignored', async () => {
    await writeTerraformState(t.storage, t.bucket, 'tf/prod/default.tfstate');
    await writeTerraformLock(t.storage, t.bucket, 'tf/prod/default.tfstate', 'ann@laptop');
    const [state] = await t.storage.bucket(t.bucket).file('tf/prod/default.tfstate').getMetadata();
    const [lock] = await t.storage.bucket(t.bucket).file('tf/prod/default.tflock').getMetadata();
    const ignored = await deliver(pushOf('OBJECT_FINALIZE', state));
    expect(ignored.status).toBe(200);
    expect(ignored.json).toMatchObject({ written: [], ignored: 'a data object' });
    expect((await deliver(pushOf('OBJECT_FINALIZE', lock))).status).toBe(200);
    await t.storage.bucket(t.bucket).file('tf/prod/default.tflock').delete();
    const deleted = await deliver(pushOf('OBJECT_DELETE', { ...lock, timeDeleted: new Date().toISOString() }));
    expect(deleted.status).toBe(200);
    const seen = await auditOf('tf/prod/default.tflock');
    expect(seen.map((e) => e.event).sort()).toEqual(['observed-created', 'observed-deleted']);
    expect(seen.every((e) => e.format === 'terraform' && e.identity === 'ann@laptop')).toBe(true);
  });

  it('records each change once when GCS publishes it twice (a new messageId and publishTime), with or without timeDeleted', async () => {
    const file = (name: string) => t.storage.bucket(t.bucket).file(name);
    await writeTerraformLock(t.storage, t.bucket, 'tf/twice/default.tfstate', 'bo@laptop');
    const [tf] = await file('tf/twice/default.tflock').getMetadata();
    const held = await acquireLock({ storage: t.storage, bucket: t.bucket, name: 'locks/twice', identity: 'job-2' });
    const [lb] = await file('locks/twice').getMetadata();
    await file('tf/twice/default.tflock').delete();
    await file('locks/twice').delete(); // by hand: a deleted-outside
    expect(await held.release()).toEqual({ outcome: 'gone' });
    // Real delete payloads may lack timeDeleted; the two publications are 90 minutes apart (another audit hour)
    const [early, late] = [new Date(Date.now() - 100 * 60_000), new Date(Date.now() - 10 * 60_000)];
    for (const publishTime of [early, late, early]) {
      for (const push of [
        pushOf('OBJECT_FINALIZE', tf, {}, publishTime),
        pushOf('OBJECT_DELETE', tf, {}, publishTime),
        pushOf('OBJECT_FINALIZE', lb, {}, publishTime),
        pushOf('OBJECT_DELETE', lb, {}, publishTime),
      ])
        expect((await deliver(push)).status).toBe(200);
    }
    const count = (events: AuditRecord[]) =>
      events.reduce<Record<string, number>>((c, e) => ({ ...c, [e.event]: (c[e.event] ?? 0) + 1 }), {});
    expect(count(await auditOf('tf/twice/default.tflock'))).toEqual({ 'observed-created': 1, 'observed-deleted': 1 });
    const lockboard = await auditOf('locks/twice');
    expect(count(lockboard)).toMatchObject({ 'observed-created': 1, 'observed-deleted': 1, 'deleted-outside': 1 });
    // the delete is dated by the first publication that arrived, whichever replica gets the later ones
    const deleted = lockboard.find((e) => e.event === 'observed-deleted')!;
    expect(Math.abs(Date.parse(deleted.at) - early.getTime())).toBeLessThan(1000);
  });

  it('records one deleted-outside for a hand-deleted Lockboard lock, however often and to whichever replica it is delivered', async () => {
    const held = await acquireLock({ storage: t.storage, bucket: t.bucket, name: 'locks/by-hand', identity: 'job-1' });
    const [object] = await t.storage.bucket(t.bucket).file('locks/by-hand').getMetadata();
    await t.storage.bucket(t.bucket).file('locks/by-hand').delete(); // gcloud storage rm, no precondition
    // the holder's own release then finds the object gone: its `released` event claims no delete
    expect(await held.release()).toEqual({ outcome: 'gone' });
    // deleted 20 s ago as far as the notification says: past the grace for the holder's own release event
    const push = pushOf('OBJECT_DELETE', { ...object, timeDeleted: new Date(Date.now() - 20_000).toISOString() });
    const results = await Promise.all([deliver(push), deliver(push), deliver(push)]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const outside = (await auditOf('locks/by-hand')).filter((e) => e.event === 'deleted-outside');
    expect(outside).toHaveLength(1);
    expect(outside[0]).toMatchObject({ generation: held.generation, identity: 'job-1', format: 'lockboard' });
  });

  it('asks Pub/Sub to redeliver (503) within the grace period, and records no deleted-outside for a released lock', async () => {
    const lock = await acquireLock({ storage: t.storage, bucket: t.bucket, name: 'locks/released' });
    const [object] = await t.storage.bucket(t.bucket).file('locks/released').getMetadata();
    await lock.release();
    // the holder's own `released` event is in the trail: no deleted-outside
    const push = pushOf('OBJECT_DELETE', { ...object, timeDeleted: new Date().toISOString() });
    const r = await deliver(push);
    expect(r.status).toBe(200);
    expect((await auditOf('locks/released')).map((e) => e.event)).not.toContain('deleted-outside');
    // a delete with no release yet and inside the grace: 503, so Pub/Sub redelivers later
    const other = await acquireLock({ storage: t.storage, bucket: t.bucket, name: 'locks/just-now', audit: false });
    const [o2] = await t.storage.bucket(t.bucket).file('locks/just-now').getMetadata();
    const early = await deliver(pushOf('OBJECT_DELETE', { ...o2, timeDeleted: new Date().toISOString() }));
    expect(early.status).toBe(503);
    await other.release();
  });

  it('refuses a forged or missing token with 401 and writes nothing; a malformed push is 400', async () => {
    const [before] = await t.storage.bucket(t.bucket).getFiles({ prefix: '.lockboard/audit/' });
    const lock = await acquireLock({ storage: t.storage, bucket: t.bucket, name: 'locks/forged', audit: false });
    const [object] = await t.storage.bucket(t.bucket).file('locks/forged').getMetadata();
    const push = pushOf('OBJECT_FINALIZE', object);
    expect((await deliver(push, 'wrong-token-0123456789abcdef')).status).toBe(401);
    expect((await call(events.POST, '/api/gcs-events', { method: 'POST', body: push })).status).toBe(401);
    const forgedJwt = await call(events.POST, '/api/gcs-events', {
      method: 'POST',
      body: push,
      headers: { authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJhY2NvdW50cy5nb29nbGUuY29tIn0.c2ln' },
    });
    expect(forgedJwt.status).toBe(401);
    const [after] = await t.storage.bucket(t.bucket).getFiles({ prefix: '.lockboard/audit/' });
    expect(after.length).toBe(before.length);
    for (const bad of [
      {},
      { message: { attributes: { eventType: 'OBJECT_FINALIZE' } } },
      { message: { attributes: { ...push.message.attributes, objectGeneration: 'x' }, data: push.message.data } },
      { message: { attributes: push.message.attributes, data: '%%%not base64 json' } },
    ]) {
      const r = await deliver(bad);
      expect(r.status, JSON.stringify(bad).slice(0, 60)).toBe(400);
    }
    await lock.release();
  });

  it('stores no event for refreshes (metadata updates) or objects outside the sources', async () => {
    const [object] = await t.storage.bucket(t.bucket).file('tf/prod/default.tfstate').getMetadata();
    const update = await deliver(
      pushOf('OBJECT_METADATA_UPDATE', { ...object, name: 'locks/x' }, { objectId: 'locks/x' }),
    );
    expect(update.json.written).toEqual([]);
    const outside = await deliver(pushOf('OBJECT_FINALIZE', { ...object, name: 'other/x' }, { objectId: 'other/x' }));
    expect(outside.json).toMatchObject({ written: [], ignored: 'outside the configured sources' });
  });
});

describe('the emulator delivers notifications', () => {
  it('supports createNotification / getNotifications / delete through the official client', async () => {
    const bucket = t.storage.bucket(t.bucket);
    const [created] = await bucket.createNotification('projects/p/topics/locks', {
      eventTypes: ['OBJECT_FINALIZE', 'OBJECT_DELETE'],
      objectNamePrefix: 'tf/',
      payloadFormat: 'JSON_API_V1',
    });
    const [all] = await bucket.getNotifications();
    expect(all.map((n) => n.id)).toContain(created.id);
    expect(all.find((n) => n.id === created.id)!.metadata).toMatchObject({
      topic: '//pubsub.googleapis.com/projects/p/topics/locks',
      event_types: ['OBJECT_FINALIZE', 'OBJECT_DELETE'],
      object_name_prefix: 'tf/',
      payload_format: 'JSON_API_V1',
    });
    await created.delete();
    expect((await bucket.getNotifications())[0].map((n) => n.id)).not.toContain(created.id);
  });

  it('pushes each change at least once (retried after a 500, sometimes twice), and the console records it once', async () => {
    const bucket = t.storage.bucket(t.bucket);
    const [config] = await bucket.createNotification('projects/p/topics/locks', {
      eventTypes: ['OBJECT_FINALIZE', 'OBJECT_DELETE'],
      objectNamePrefix: 'tf/staging/',
      payloadFormat: 'JSON_API_V1',
    });
    await writeTerraformLock(t.storage, t.bucket, 'tf/staging/default.tfstate', 'bob@laptop');
    await bucket.file('tf/staging/default.tflock').delete();
    // every delivery refused once, then forwarded (2 changes, some duplicated): wait until both kinds are recorded
    for (let i = 0; i < 100; i++) {
      const kinds = (await auditOf('tf/staging/default.tflock')).map((e) => e.event).sort();
      if (kinds.length >= 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seen = await auditOf('tf/staging/default.tflock');
    expect(seen.map((e) => e.event).sort()).toEqual(['observed-created', 'observed-deleted']);
    expect(t.emulator!.notifications.stats.retried).toBeGreaterThanOrEqual(2);
    expect(forwarded.every((f) => f.status === 200)).toBe(true);
    await config.delete();
  });
});
