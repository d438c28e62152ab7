// Discover's done-when check on the demo's buckets: the embedded emulator with the demo's GCS and S3 buckets and their
// holders running (lib/demo/holders.ts: Lockboard's own locks, Terraform's, Pulumi's, the platform team's…); `gs://` and
// `s3://` discovered as the Sources page does it (default bounds) find every bucket source the demo configures and
// nothing it does not configure. (The demo's servers: discover-demo.test.ts.)
import { S3Client } from '@aws-sdk/client-s3';
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '@/lib/cli/discover/budget';
import { targetsOf, watches } from '@/lib/cli/discover/connections';
import { discoverTarget } from '@/lib/cli/discover/walk';
import { bucketSources, DEMO_BUCKET, GCS_BUCKETS } from '@/lib/demo/buckets';
import { startHolders, type Holders } from '@/lib/demo/holders';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { parseSource } from '@/lib/lock/stores';

let emulator: Emulator;
let holders: Holders;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  emulator = await startEmulator({ buckets: GCS_BUCKETS, s3: {} });
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'demo' });
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint: emulator.s3!.url,
    forcePathStyle: true,
    credentials: { accessKeyId: 'demo', secretAccessKey: 'demo' },
  });
  holders = await startHolders(storage, DEMO_BUCKET, { s3 });
  env = {
    ...process.env,
    AWS_ACCESS_KEY_ID: undefined, // the emulator's endpoint: the S3 store's own stand-in credentials, as the demo's console
    LOCKBOARD_GCS_ENDPOINT: emulator.url,
    AWS_ENDPOINT_URL_S3: emulator.s3!.url,
    AWS_REGION: 'us-east-1',
  };
  await new Promise((r) => setTimeout(r, 3_000)); // the holders' first locks
}, 60_000);
afterAll(async () => {
  await holders?.stop();
  await emulator?.close();
});

it('finds every bucket source the demo configures, and none it does not configure', async () => {
  const configured = bucketSources().map((url) => parseSource(url, env).id);
  const targets = targetsOf(bucketSources());
  expect(targets.sort()).toEqual(['gs://', 's3://']);
  let missed: string[] = [];
  let unconfigured: string[] = [];
  // a holder between its release and its next take leaves nothing to find, for ls as for discover: looked at again
  for (let attempt = 0; attempt < 3; attempt++) {
    const found: string[] = [];
    for (const target of targets) {
      const r = await discoverTarget(target, DEFAULT_LIMITS, env, () => {});
      expect([r.target, r.unreachable, r.problems]).toEqual([r.target, undefined, []]);
      found.push(...r.candidates.map((c) => c.source));
    }
    missed = configured.filter((id) => !found.some((f) => watches(id, f)));
    unconfigured = found.filter((f) => !configured.some((id) => watches(id, f)));
    if (!missed.length && !unconfigured.length) break;
    await new Promise((r) => setTimeout(r, 1_500));
  }
  expect(missed).toEqual([]);
  expect(unconfigured).toEqual([]);
}, 120_000);
