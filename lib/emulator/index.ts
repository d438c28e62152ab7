// startEmulator: a GCS JSON API server for tests, the demo and local development.
import type { AddressInfo } from 'node:net';
import { Faults, type FaultConfig } from './faults';
import { Notifications, type PushOptions } from './notifications';
import { ObjectStore } from './objects';
import { Persistence } from './persist';
import { RequestLog } from './request-log';
import { createEmulatorServer } from './server';

export type { FaultConfig, FaultRule } from './faults';
export type { RequestLogEntry } from './request-log';
export type { PushOptions, NotificationConfig } from './notifications';
export { Faults } from './faults';
export { RequestLog } from './request-log';
export { ObjectStore } from './objects';

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
}

export interface Emulator {
  url: string;
  port: number;
  faults: Faults;
  requests: RequestLog;
  /** The in-memory state, for seeding large benchmarks without going through HTTP. */
  store: ObjectStore;
  notifications: Notifications;
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
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: baseUrl,
    port,
    faults,
    requests,
    store,
    notifications,
    close: () =>
      new Promise<void>((resolve) => {
        void notifications.close();
        server.close(() => {
          persistence?.close();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
