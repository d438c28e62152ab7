// startEmulator: a GCS JSON API server for tests, the demo and local development.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Faults, type FaultConfig } from './testing/faults';
import { Notifications, type PushOptions } from './json-api/notifications';
import { ObjectStore } from './objects/objects';
import { Persistence } from './objects/persist';
import { RequestLog } from './testing/request-log';
import { createEmulatorServer } from './server';
import { persistS3 } from './s3/persist';
import { createS3Server } from './s3/server';
import { S3ObjectStore } from './s3/store';

export type { FaultConfig, FaultRule } from './testing/faults';
export type { RequestLogEntry } from './testing/request-log';
export type { PushOptions, NotificationConfig } from './json-api/notifications';
export { Faults } from './testing/faults';
export { RequestLog } from './testing/request-log';
export { ObjectStore } from './objects/objects';
export { S3ObjectStore } from './s3/store';

export interface EmulatorOptions {
  port?: number;
  host?: string;
  /** Buckets to create at start (skipped when they exist already, e.g. restored from `dataDir`). */
  buckets?: (string | { name: string; versioning?: boolean })[];
  /** Directory for on-disk state; in memory only when absent. */
  dataDir?: string;
  /** Milliseconds since the epoch; defaults to Date.now. */
  clock?: () => number;
  faults?: FaultConfig;
  /** Deliver bucket notifications (created with the JSON API / bucket.createNotification) to this push endpoint. */
  push?: PushOptions;
  /** Also serve S3 (path style) on a second port: `port` 0 or absent picks a free one. */
  s3?: { port?: number; buckets?: string[] };
}

export interface S3Emulator {
  /** Endpoint for the AWS SDK: `new S3Client({ endpoint: url, forcePathStyle: true, region, credentials })`. */
  url: string;
  port: number;
  store: S3ObjectStore;
  faults: Faults;
  requests: RequestLog;
}

export interface Emulator {
  url: string;
  port: number;
  faults: Faults;
  requests: RequestLog;
  /** The in-memory state, for seeding large benchmarks without going through HTTP. */
  store: ObjectStore;
  notifications: Notifications;
  /** The S3 side, when `s3` was given. */
  s3?: S3Emulator;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const clock = options.clock ?? Date.now;
  const store = new ObjectStore();
  const persistence = options.dataDir ? new Persistence(options.dataDir, store) : undefined;
  const faults = new Faults(options.faults);
  const requests = new RequestLog();
  for (const spec of options.buckets ?? []) {
    const { name, versioning = false } = typeof spec === 'string' ? { name: spec } : spec;
    if (!store.listBuckets().some((b) => b.name === name)) store.createBucket(name, versioning, clock());
  }
  let baseUrl = '';
  const notifications = new Notifications(store, options.push, () => baseUrl);
  const server = createEmulatorServer({ store, faults, requests, clock, notifications });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlOf = (p: number) => `http://${host.includes(':') ? `[${host}]` : host}:${p}`;
  baseUrl = urlOf(port);
  let s3: (S3Emulator & { server: Server }) | undefined;
  if (options.s3) {
    const s3Store = new S3ObjectStore();
    if (options.dataDir) persistS3(options.dataDir, s3Store);
    for (const b of options.s3.buckets ?? []) s3Store.createBucket(b, clock());
    const s3Faults = new Faults();
    const s3Requests = new RequestLog();
    const s3Server = createS3Server({ store: s3Store, faults: s3Faults, requests: s3Requests, clock });
    const s3Port = await listen(s3Server, options.s3.port ?? 0, host).catch(async (err: unknown) => {
      await new Promise((r) => server.close(r));
      throw err;
    });
    s3 = { url: urlOf(s3Port), port: s3Port, store: s3Store, faults: s3Faults, requests: s3Requests, server: s3Server };
  }
  return {
    url: baseUrl,
    port,
    faults,
    requests,
    store,
    notifications,
    ...(s3 ? { s3: { url: s3.url, port: s3.port, store: s3.store, faults: s3.faults, requests: s3.requests } } : {}),
    close: () =>
      new Promise<void>((resolve) => {
        void notifications.close();
        s3?.server.close();
        s3?.server.closeAllConnections();
        server.close(() => {
          persistence?.close();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
