// Bucket notification configs (the JSON API's notificationConfigs) and their delivery, at least once (non-2xx and
// network errors are retried with backoff): published to the config's topic on a Pub/Sub emulator (as GCS
// publishes: the attributes and the JSON_API_V1 payload), and/or pushed straight to one endpoint in the envelope a
// Pub/Sub push subscription sends, for machines without a Pub/Sub emulator.
// Delivery faults (seeded): drop an attempt (retried), publish a change twice, or delay it (which reorders).
import { randomBytes } from 'node:crypto';
import { GcsError } from '../errors';
import { seededRandom } from '../testing/faults';
import type { ObjectEvent, ObjectStore } from '../objects/objects';
import { objectResource } from './resources';

export interface PushOptions {
  /** Where to POST each notification (e.g. the console's /api/gcs-events); absent: Pub/Sub only. */
  endpoint?: string;
  /** host:port of a Pub/Sub emulator (PUBSUB_EMULATOR_HOST): each change is published to its config's topic. */
  pubsubEmulatorHost?: string;
  /** Appended as ?token= (the console's LOCKBOARD_PUSH_TOKEN). */
  token?: string;
  /** 0..1: publish some changes twice, as separate messages (GCS publishes at least once). */
  duplicateRate?: number;
  /** 0..1: lose some delivery attempts before they reach the endpoint (they are retried, like a timeout). */
  dropRate?: number;
  /** Delay each delivery by a random time in this range (ms): deliveries arrive out of order. */
  delayMs?: [number, number];
  /** Give up on a delivery after this many attempts (default 12, about a minute of backoff). */
  maxAttempts?: number;
  seed?: number;
}

export interface NotificationConfig {
  id: string;
  topic: string;
  event_types?: string[];
  object_name_prefix?: string;
  payload_format: 'JSON_API_V1' | 'NONE';
  custom_attributes?: Record<string, string>;
}

const EVENT_TYPES = ['OBJECT_FINALIZE', 'OBJECT_METADATA_UPDATE', 'OBJECT_DELETE', 'OBJECT_ARCHIVE'];

export class Notifications {
  private readonly configs = new Map<string, NotificationConfig[]>();
  private nextId = 1;
  private readonly random: () => number;
  private readonly pending = new Set<Promise<void>>();
  private closed = false;
  /** Deliveries acknowledged (2xx), retried and abandoned, for tests and benchmarks. */
  readonly stats = { delivered: 0, retried: 0, abandoned: 0 };

  constructor(
    store: ObjectStore,
    private readonly push: PushOptions | undefined,
    private readonly baseUrl: () => string,
  ) {
    this.random = seededRandom(push?.seed ?? 1);
    store.onObjectEvent((event) => this.publish(event));
  }

  list(bucket: string): NotificationConfig[] {
    return this.configs.get(bucket) ?? [];
  }

  create(bucket: string, body: Record<string, unknown>): NotificationConfig {
    const topic = body.topic;
    if (typeof topic !== 'string' || !/^(\/\/pubsub\.googleapis\.com\/)?projects\/[^/]+\/topics\/[^/]+$/.test(topic)) {
      throw new GcsError(400, 'invalid', `Invalid topic: ${JSON.stringify(topic)} (projects/P/topics/T expected)`);
    }
    const format = body.payload_format ?? 'JSON_API_V1';
    if (format !== 'JSON_API_V1' && format !== 'NONE') {
      throw new GcsError(400, 'invalid', `Invalid payload_format: ${JSON.stringify(format)}`);
    }
    const types = body.event_types;
    if (types !== undefined && (!Array.isArray(types) || !types.every((t) => EVENT_TYPES.includes(String(t))))) {
      throw new GcsError(400, 'invalid', `Invalid event_types: expected some of ${EVENT_TYPES.join(', ')}`);
    }
    const config: NotificationConfig = {
      id: String(this.nextId++),
      topic: topic.startsWith('//') ? topic : `//pubsub.googleapis.com/${topic}`,
      payload_format: format,
      ...(types ? { event_types: types.map(String) } : {}),
      ...(typeof body.object_name_prefix === 'string' ? { object_name_prefix: body.object_name_prefix } : {}),
      ...(body.custom_attributes && typeof body.custom_attributes === 'object'
        ? { custom_attributes: body.custom_attributes as Record<string, string> }
        : {}),
    };
    this.configs.set(bucket, [...this.list(bucket), config]);
    return config;
  }

  get(bucket: string, id: string): NotificationConfig {
    const config = this.list(bucket).find((c) => c.id === id);
    if (!config) throw new GcsError(404, 'notFound', `No such notification config: ${id}`);
    return config;
  }

  delete(bucket: string, id: string): void {
    this.get(bucket, id);
    this.configs.set(
      bucket,
      this.list(bucket).filter((c) => c.id !== id),
    );
  }

  resource(bucket: string, c: NotificationConfig): Record<string, unknown> {
    return {
      kind: 'storage#notification',
      selfLink: `${this.baseUrl()}/storage/v1/b/${encodeURIComponent(bucket)}/notificationConfigs/${c.id}`,
      etag: c.id,
      ...c,
    };
  }

  /** Waits for deliveries in flight (tests), then stops retrying. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.pending]);
  }

  private publish(event: ObjectEvent): void {
    const push = this.push;
    if (!push || this.closed) return;
    for (const config of this.list(event.bucket)) {
      if (config.event_types && !config.event_types.includes(event.type)) continue;
      if (config.object_name_prefix && !event.object.name.startsWith(config.object_name_prefix)) continue;
      const copies = this.random() < (push.duplicateRate ?? 0) ? 2 : 1;
      for (let i = 0; i < copies; i++) {
        // Every publication is a new message: its own messageId and publishTime
        const message = this.messageOf(event, config);
        const topic = config.topic.replace(/^\/\/pubsub\.googleapis\.com\//, '');
        if (push.pubsubEmulatorHost) {
          const url = new URL(`http://${push.pubsubEmulatorHost}/v1/${topic}:publish`);
          this.track(this.deliver(url, { messages: [{ data: message.data, attributes: message.attributes }] }));
        }
        if (push.endpoint) {
          const url = new URL(push.endpoint);
          if (push.token) url.searchParams.set('token', push.token);
          const subscription = `projects/emulator/subscriptions/${topic.split('/').pop()}-push`;
          this.track(this.deliver(url, { message, subscription }));
        }
      }
    }
  }

  private messageOf(event: ObjectEvent, config: NotificationConfig) {
    const attributes: Record<string, string> = {
      notificationConfig: `projects/_/buckets/${event.bucket}/notificationConfigs/${config.id}`,
      eventType: event.type,
      payloadFormat: config.payload_format,
      bucketId: event.bucket,
      objectId: event.object.name,
      objectGeneration: String(event.object.generation),
      eventTime: new Date(event.at).toISOString(),
      ...event.attributes,
      ...config.custom_attributes,
    };
    const payload = {
      ...objectResource(event.bucket, event.object, this.baseUrl()),
      ...(event.type === 'OBJECT_DELETE' ? { timeDeleted: new Date(event.at).toISOString() } : {}),
    };
    return {
      attributes,
      data:
        config.payload_format === 'JSON_API_V1' ? Buffer.from(JSON.stringify(payload)).toString('base64') : undefined,
      messageId: randomBytes(8).readBigUInt64BE().toString(),
      publishTime: new Date().toISOString(),
    };
  }

  private track(p: Promise<void>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  private async deliver(url: URL, message: unknown): Promise<void> {
    const push = this.push!;
    const [min, max] = push.delayMs ?? [0, 0];
    if (max > 0) await sleep(min + this.random() * (max - min));
    const body = JSON.stringify(message);
    let backoff = 100;
    for (let attempt = 1; attempt <= (push.maxAttempts ?? 12); attempt++) {
      if (this.closed && attempt > 1) return;
      try {
        if (this.random() < (push.dropRate ?? 0)) throw new Error('dropped (injected fault)');
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) {
          this.stats.delivered++;
          return;
        }
      } catch {
        // endpoint down: retried like a non-2xx answer
      }
      this.stats.retried++;
      await sleep(backoff * (0.5 + this.random()));
      backoff = Math.min(backoff * 2, 10_000);
    }
    this.stats.abandoned++;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
