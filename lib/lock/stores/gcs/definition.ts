// Cloud Storage in the registry: gs://BUCKET/PREFIX sources (a whole object URL names one lock), the official client
// loaded when a source is opened (LOCKBOARD_GCS_ENDPOINT for the emulator, else Application Default Credentials).
import type { Storage } from '@google-cloud/storage';
import { isLoopback, type OpenOptions, type SourceSpec, type StoreDefinition } from '../types';
import { judgeGcsError } from './unreachable';
import { parseGcsSource, splitGcsLockUrl } from './source';
import { GCS_VERSION } from './version';
import { gcsDiscovery } from './discover';
import { gcsFormats } from './lock-formats';

const clients = new Map<string, Storage>();

async function storageFor(env: OpenOptions['env']): Promise<Storage> {
  const endpoint = env.LOCKBOARD_GCS_ENDPOINT?.replace(/\/+$/, '') ?? '';
  let client = clients.get(endpoint);
  if (!client) {
    const { Storage } = await import('@google-cloud/storage');
    client = endpoint ? new Storage({ apiEndpoint: endpoint, projectId: 'lockboard' }) : new Storage();
    clients.set(endpoint, client);
  }
  return client;
}

export const gcs: StoreDefinition = {
  kind: 'gcs',
  formats: gcsFormats,
  label: 'Cloud Storage',
  versionShape: GCS_VERSION,
  judgeError: judgeGcsError,
  watchIntervalMs: 2_000,
  schemes: ['gs'],
  form: 'gs://BUCKET/PREFIX',
  parse: parseGcsSource,
  splitLockUrl: splitGcsLockUrl,
  discover: gcsDiscovery(storageFor),
  hold: async () => (await import('./hold')).gcsHolds(storageFor),
  configIssues(env, o) {
    return o.demo && !isLoopback(env.LOCKBOARD_GCS_ENDPOINT)
      ? [
          {
            variable: 'LOCKBOARD_DEMO',
            message:
              'demo mode only runs against a local emulator (LOCKBOARD_GCS_ENDPOINT on 127.0.0.1 or localhost), never real Cloud Storage',
          },
        ]
      : [];
  },
  async open(spec: SourceSpec, o: OpenOptions) {
    const { GcsLockStore } = await import('./store');
    return new GcsLockStore({
      storage: await storageFor(o.env),
      bucket: spec.bucket,
      prefix: spec.prefix,
      auditPrefix: o.auditPrefix,
      longHeldMs: o.longHeldMs,
      pubsubEmulatorHost: o.env.PUBSUB_EMULATOR_HOST,
    });
  },
  async acquire(spec, name, o) {
    const { acquireLock } = await import('./acquire');
    const lock = await acquireLock({
      storage: await storageFor(o.env),
      bucket: spec.bucket,
      name: name.startsWith(spec.prefix) ? name : spec.prefix + name,
      ttlMs: o.ttlMs,
      timeoutMs: o.timeoutMs,
      identity: o.identity,
      purpose: o.purpose,
      signal: o.signal,
      onWait: o.onWait,
      onStorageError: o.onStoreError,
    });
    return {
      name: lock.name,
      token: lock.generation,
      signal: lock.signal,
      releaseWith: (d) => lock.releaseWith(d),
    };
  },
};
