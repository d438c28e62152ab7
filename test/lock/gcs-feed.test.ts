// GCS's change feed where it cannot work: a local storage emulator with no Pub/Sub emulator beside it (the demo) has
// no feed, and Pub/Sub is not even tried (Pub/Sub itself knows nothing of the emulator's topics, and the demo has no
// Google credentials); without credentials against real Cloud Storage the feed fails in one line naming what to set.
import type { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGcsFeed } from '@/lib/lock/stores/gcs/feed';
import { startTestEmulator, type Target } from '../helpers/gcs';

let t: Target;
beforeAll(async () => {
  t = await startTestEmulator();
  await t.storage.bucket(t.bucket).createNotification('projects/test/topics/locks', { payloadFormat: 'JSON_API_V1' });
});
afterAll(() => t?.close());

const handlers = { changed: () => undefined, missed: () => undefined };
const options = (storage: Storage) => ({ storage, bucket: 'test-bucket', prefix: 'locks/', auditPrefix: '.audit/' });

describe('the GCS change feed', () => {
  it('is not tried against a local emulator without PUBSUB_EMULATOR_HOST: no feed, no request, no error', async () => {
    t.emulator!.requests.clear();
    expect(await startGcsFeed(options(t.storage), handlers)).toBeNull();
    expect(t.emulator!.requests.count()).toBe(0);
  });

  it('says in one line which variable to set when there are no Google credentials', async () => {
    const noCredentials = new Error(
      'Could not load the default credentials. Browse to https://cloud.google.com/docs/authentication/getting-started for more information.',
    );
    const storage = {
      apiEndpoint: 'https://storage.googleapis.com',
      bucket: () => ({ getNotifications: () => Promise.reject(noCredentials) }),
    } as unknown as Storage;
    const failed = await startGcsFeed(options(storage), handlers).catch((err: Error) => err);
    expect((failed as Error).message).toBe(
      'no Google credentials for Pub/Sub: set GOOGLE_APPLICATION_CREDENTIALS (or run with a service account), or PUBSUB_EMULATOR_HOST for an emulator',
    );
    const other = new Error('403 storage.buckets.get denied');
    const denied = {
      ...storage,
      bucket: () => ({ getNotifications: () => Promise.reject(other) }),
    } as unknown as Storage;
    expect(await startGcsFeed(options(denied), handlers).catch((err: Error) => err)).toBe(other);
  });
});
