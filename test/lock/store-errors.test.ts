// Each store judges its own client's errors (StoreDefinition.judgeError): the core (store-errors.ts) names no SDK. A
// Cloud Storage 400 from the emulator is the request's fault (the console's 400), a 5xx or no answer is the service
// unavailable (503, CLI exit 3), an AWS SDK error with `$metadata` is the AWS service unavailable, and an error no
// store knows is neither.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeRefusedRequest, storeUnavailable } from '@/lib/lock/store-errors';
import { BucketObjects, GcsCallError } from '@/lib/lock/stores/gcs/client';
import { startTestEmulator, type Target } from '../helpers/gcs';

let target: Target;
beforeAll(async () => {
  target = await startTestEmulator();
});
afterAll(() => target.close());

describe('a store judges its own errors', () => {
  it('Cloud Storage: a 400 the emulator answered is the client’s mistake, never "unavailable"', async () => {
    const objects = new BucketObjects(target.storage, target.bucket);
    const err = await objects.list({ prefix: target.prefix, pageToken: 'not-a-token', fields: 'items(name)' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GcsCallError);
    expect((err as GcsCallError).status).toBe(400);
    expect(storeRefusedRequest(err)).toBe(true);
    expect(storeUnavailable(err)).toBeNull();
  });

  it('Cloud Storage: a 503 or no answer is the service unavailable', () => {
    expect(storeUnavailable(new GcsCallError(503, 'backend error'))).toBe(
      'Cloud Storage is unavailable (503): backend error',
    );
    expect(storeUnavailable(new GcsCallError(0, 'timed out'))).toBe(
      'Cloud Storage is unavailable (no response): timed out',
    );
    expect(storeRefusedRequest(new GcsCallError(503, 'backend error'))).toBe(false);
  });

  it('AWS: an SDK error carrying $metadata is the AWS service unavailable', () => {
    const err = Object.assign(new Error('Slow Down'), { $metadata: { httpStatusCode: 503 } });
    expect(storeUnavailable(err)).toBe('The AWS service is unavailable (503): Slow Down');
  });

  it('an error no store knows is neither', () => {
    expect(storeUnavailable(new Error('something else'))).toBeNull();
    expect(storeRefusedRequest(new Error('something else'))).toBe(false);
  });
});
