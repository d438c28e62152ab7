// Two baseline lock strategies, written from their published descriptions, for the side-by-side benchmark.
// Each gives up (null) when its next sleep would pass the scenario's end, so a scenario always finishes.
import type { Storage } from '@google-cloud/storage';

export interface SimpleLock {
  release(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const retryable = (err: unknown) => [412, 429].includes((err as { code?: number }).code ?? 0);

async function create(storage: Storage, bucket: string, name: string): Promise<SimpleLock> {
  const file = storage.bucket(bucket).file(name);
  await file.save('{}', { resumable: false, preconditionOpts: { ifGenerationMatch: 0 } });
  const generation = Number(file.metadata.generation);
  return { release: async () => void (await file.delete({ ifGenerationMatch: generation })) };
}

async function poll(
  storage: Storage,
  bucket: string,
  name: string,
  deadline: number,
  delay: (attempt: number) => number,
) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await create(storage, bucket, name);
    } catch (err) {
      if (!retryable(err)) throw err;
      const ms = delay(attempt);
      if (performance.now() + ms > deadline) return null;
      await sleep(ms);
    }
  }
}

/** (a) "create; on failure sleep a fixed 5 s". */
export const fixedSleepAcquire = (storage: Storage, bucket: string, name: string, deadline: number) =>
  poll(storage, bucket, name, deadline, () => 5_000);

/** (b) create-polling with uncapped exponential backoff (50 ms doubling) and no TTL. */
export const exponentialAcquire = (storage: Storage, bucket: string, name: string, deadline: number) =>
  poll(storage, bucket, name, deadline, (attempt) => 50 * 2 ** attempt);
