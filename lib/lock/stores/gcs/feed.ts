// GCS's change feed for the console's live view: the bucket's own Pub/Sub notification config (found through the
// JSON API, never created here) and one pull subscription per console process, created at start with an expiry (a
// replica that dies leaves nothing behind for long) and deleted at stop, so every replica hears every change. Each
// message names an object; the watcher reads it. Without a usable config, or without permission to subscribe, there
// is no feed and the console lists at the store's pace (or, where notifications are pushed to /api/gcs-events, only
// checks while they come). A local storage emulator with no Pub/Sub emulator beside it has no feed: Pub/Sub itself
// knows nothing of its topics (the demo, whose emulator pushes to the console instead).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Storage } from '@google-cloud/storage';
import type { ChangeFeed, ChangeFeedHandlers } from '../../store';
import { isLoopback } from '../types';

interface FeedOptions {
  storage: Storage;
  bucket: string;
  prefix: string;
  auditPrefix: string;
  /** host:port of a Pub/Sub emulator (PUBSUB_EMULATOR_HOST), else Pub/Sub itself with the storage client's credentials. */
  pubsubEmulatorHost?: string;
}

interface ReceivedMessage {
  ackId: string;
  message: { attributes?: Record<string, string>; publishTime?: string };
}

const NEEDED = ['OBJECT_FINALIZE', 'OBJECT_DELETE'];
/** An idle pull that answers at once (the emulator) is repeated after this long; Pub/Sub itself holds the pull. */
const IDLE_PULL_MS = 100;

/** The topic of a notification config that reports creates and deletes of every object under `prefix`, if any. */
async function notificationTopic(o: FeedOptions): Promise<{ topic: string; refreshes: boolean } | null> {
  const [configs] = await o.storage.bucket(o.bucket).getNotifications();
  for (const c of configs) {
    const m = c.metadata as { topic?: string; event_types?: string[]; object_name_prefix?: string };
    const types = m.event_types;
    if (!m.topic || (types && !NEEDED.every((t) => types.includes(t)))) continue;
    if (m.object_name_prefix && !o.prefix.startsWith(m.object_name_prefix)) continue;
    const topic = m.topic.replace(/^\/\/pubsub\.googleapis\.com\//, '');
    return { topic, refreshes: !types || types.includes('OBJECT_METADATA_UPDATE') };
  }
  return null;
}

export async function startGcsFeed(o: FeedOptions, handlers: ChangeFeedHandlers): Promise<ChangeFeed | null> {
  if (!o.pubsubEmulatorHost && isLoopback(o.storage.apiEndpoint)) return null;
  const found = await notificationTopic(o).catch(explainCredentials);
  if (!found) return null;
  const project = found.topic.split('/')[1]!;
  const host = hostname()
    .replace(/[^A-Za-z0-9-]/g, '-')
    .slice(0, 40);
  const subscription = `projects/${project}/subscriptions/lockboard-${host}-${randomBytes(4).toString('hex')}`;
  const call = pubsubCaller(o);
  const create = () =>
    call('PUT', subscription, {
      topic: found.topic,
      ackDeadlineSeconds: 10,
      expirationPolicy: { ttl: '86400s' }, // the minimum: a replica that never stopped cleanly costs one idle day
      messageRetentionDuration: '600s',
    });
  await create().catch(explainCredentials);
  let stopped = false;
  const stopping = new AbortController(); // a held pull ends at stop, not when Pub/Sub answers it
  const loop = (async () => {
    let failures = 0;
    while (!stopped) {
      const started = Date.now();
      try {
        const body = (await call('POST', `${subscription}:pull`, { maxMessages: 1000 }, stopping.signal)) as {
          receivedMessages?: ReceivedMessage[];
        };
        if (failures > 0) handlers.missed('the Pub/Sub subscription answers again');
        failures = 0;
        const received = body.receivedMessages ?? [];
        if (received.length) {
          await call('POST', `${subscription}:acknowledge`, { ackIds: received.map((r) => r.ackId) });
          deliver(received, o, handlers);
        } else if (Date.now() - started < IDLE_PULL_MS) await sleep(IDLE_PULL_MS);
      } catch (err) {
        if (stopped) break;
        failures++;
        // the subscription expired or was deleted: a new one (changes in between are found by the listing)
        if ((err as { status?: number }).status === 404) await create().catch(() => undefined);
        await sleep(Math.min(30_000, 500 * 2 ** Math.min(failures, 6)));
      }
    }
  })();
  return {
    description: `Pub/Sub ${found.topic}${found.refreshes ? '' : ' (creates and deletes only)'}`,
    async stop() {
      stopped = true;
      stopping.abort();
      await call('DELETE', subscription).catch(() => undefined);
      await loop;
    },
  };
}

function deliver(received: ReceivedMessage[], o: FeedOptions, handlers: ChangeFeedHandlers): void {
  const byTime = new Map<number | undefined, string[]>();
  for (const { message } of received) {
    const a = message.attributes ?? {};
    if (a.bucketId !== o.bucket || !a.objectId) continue;
    if (!a.objectId.startsWith(o.prefix) || a.objectId.startsWith(o.auditPrefix)) continue;
    const at = Date.parse(message.publishTime ?? '');
    const key = Number.isFinite(at) ? at : undefined;
    byTime.set(key, [...(byTime.get(key) ?? []), a.objectId]);
  }
  for (const [at, names] of byTime) handlers.changed(names, at);
}

type Caller = (method: string, path: string, body?: unknown, signal?: AbortSignal) => Promise<unknown>;

/** Pub/Sub's REST API: the emulator over plain HTTP, or pubsub.googleapis.com with the storage client's credentials. */
function pubsubCaller(o: FeedOptions): Caller {
  if (o.pubsubEmulatorHost) {
    return async (method, path, body, signal) => {
      const res = await fetch(`http://${o.pubsubEmulatorHost}/v1/${path}`, {
        method,
        ...(signal ? { signal } : {}),
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (!res.ok)
        throw Object.assign(new Error(`Pub/Sub ${method} ${path}: ${res.status} ${text}`), { status: res.status });
      return text ? JSON.parse(text) : {};
    };
  }
  return async (method, path, body, signal) => {
    const res = await o.storage.authClient.request({
      url: `https://pubsub.googleapis.com/v1/${path}`,
      method: method as 'GET',
      ...(signal ? { signal: signal as never } : {}),
      ...(body === undefined ? {} : { data: body }),
    });
    return res.data;
  };
}

/** Pub/Sub without Google credentials: one line that names what to set, not the auth library's paragraph. */
function explainCredentials(err: unknown): never {
  if (!/default credentials/i.test((err as Error).message ?? '')) throw err;
  throw new Error(
    'no Google credentials for Pub/Sub: set GOOGLE_APPLICATION_CREDENTIALS (or run with a service account), or PUBSUB_EMULATOR_HOST for an emulator',
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
