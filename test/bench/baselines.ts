// Two baseline lock strategies, written from their published descriptions, for the side-by-side benchmark.
import type { Storage } from '@google-cloud/storage';

export interface SimpleLock {
  release(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const is412 = (err: unknown) => (err as { code?: number }).code === 412;

async function create(storage: Storage, bucket: string, name: string): Promise<SimpleLock> {
  const file = storage.bucket(bucket).file(name);
  await file.save('{}', { resumable: false, preconditionOpts: { ifGenerationMatch: 0 } });
  const generation = Number(file.metadata.generation);
  return { release: async () => void (await file.delete({ ifGenerationMatch: generation })) };
}

/** (a) "create; on failure sleep a fixed 5 s". */
export async function fixedSleepAcquire(storage: Storage, bucket: string, name: string): Promise<SimpleLock> {
  for (;;) {
    try {
      return await create(storage, bucket, name);
    } catch (err) {
      if (!is412(err) && (err as { code?: number }).code !== 429) throw err;
      await sleep(5_000);
    }
  }
}

/** (b) create-polling with uncapped exponential backoff and no TTL. */
export async function exponentialAcquire(storage: Storage, bucket: string, name: string): Promise<SimpleLock> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await create(storage, bucket, name);
    } catch (err) {
      if (!is412(err) && (err as { code?: number }).code !== 429) throw err;
      await sleep(50 * 2 ** attempt);
    }
  }
}
