// npm run bench -- ls: `lockboard ls`'s listing (listAll) of a cold 10 000-object mixed prefix against a hand-written
// listing with the official client that downloads the same bodies with the same concurrency, on GCS and S3, in the
// same run. The emulator runs in a process of its own, as a user's store is remote; runs alternate, each cold (the
// library's body cache emptied, a new store).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { Storage } from '@google-cloud/storage';
import { listAll } from '@/lib/lock/list-all';
import { mapLimit } from '@/lib/lock/support/map-limit';
import { dataReason, needsBody } from '@/lib/lock/objects/formats';
import { objectViewOf } from '@/lib/lock/objects/inspect';
import { openSource, parseSource } from '@/lib/lock/stores';
import { forgetBodies } from '@/lib/lock/stores/gcs/list';
import { LOCKBOARD_BODY_LIMIT } from '@/lib/lock/stores/s3/view';
import { s3ClientFor } from '../helpers/s3';
import { printTable, quantile, round, writeJson } from './report';

const OBJECTS = 10_000;
const RUNS = Number(process.env.LS_RUNS ?? 5);

/** GCS: getFiles over every page, then the bodies a format needs, 32 at once (the store's READ_CONCURRENCY). */
export async function gcsByHand(storage: Storage, bucket: string): Promise<number> {
  const [files] = await storage.bucket(bucket).getFiles({ prefix: 'mixed/', autoPaginate: true });
  const wanted = files.filter((f) => needsBody(objectViewOf({ ...f.metadata, name: f.name } as never)));
  await mapLimit(wanted, 32, (f) => f.download());
  return wanted.length;
}

/** S3: ListObjectsV2 over every page, then the bodies the store reads, 16 at once (the store's concurrency). */
export async function s3ByHand(s3: S3Client, bucket: string): Promise<number> {
  const keys: { Key?: string; Size?: number }[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: 'mixed/', ContinuationToken: token }),
    );
    keys.push(...(page.Contents ?? []));
    token = page.NextContinuationToken;
  } while (token);
  // the bodies the store reads: a small object that is not data (Lockboard's JSON body), or what a format needs
  const wanted = keys.filter((k) => {
    const size = k.Size ?? 0;
    const probe = objectViewOf({ name: k.Key!, size: String(size), generation: '1', metageneration: '1' } as never);
    if (size > 64 * 1024) return false;
    return size <= LOCKBOARD_BODY_LIMIT ? dataReason(probe) === null && !k.Key!.endsWith('/') : needsBody(probe);
  });
  await mapLimit(wanted, 16, async (k) =>
    (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: k.Key }))).Body?.transformToString(),
  );
  return wanted.length;
}

export interface LsTargets {
  gcs: { storage: Storage; bucket: string; source: string };
  s3: { client: S3Client; bucket: string; source: string };
  env: Record<string, string>;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  forgetBodies();
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** `runs` alternating cold runs of each, per store: the medians, and every run. */
export async function lsVsHandWritten(t: LsTargets, runs = RUNS) {
  const rows = [];
  for (const [store, source, byHand] of [
    ['gcs', t.gcs.source, () => gcsByHand(t.gcs.storage, t.gcs.bucket)],
    ['s3', t.s3.source, () => s3ByHand(t.s3.client, t.s3.bucket)],
  ] as const) {
    const hand: number[] = [];
    const ls: number[] = [];
    let bodies = 0;
    let locks = 0;
    for (let run = 0; run < runs; run++) {
      hand.push(await timed(async () => (bodies = await byHand())));
      ls.push(
        await timed(async () => {
          const opened = await openSource(parseSource(source, t.env), { env: t.env, role: 'cli' });
          locks = (await listAll(opened)).locks.length;
          await opened.close();
        }),
      );
    }
    const [h, l] = [quantile(hand, 0.5), quantile(ls, 0.5)];
    rows.push({
      store,
      'bodies read': bodies,
      [`hand-written ms (median of ${runs})`]: round(h),
      [`lockboard ls ms (median of ${runs})`]: round(l),
      'ls vs hand-written': `${l <= h ? '' : '+'}${round(((l - h) / h) * 100)} %`,
      locks,
      'hand-written runs': hand.map((n) => Math.round(n)).join(' '),
      'ls runs': ls.map((n) => Math.round(n)).join(' '),
    });
  }
  return rows;
}

/** The seeded emulator in its own process; stopped by `stop`. */
export async function startLsEmulator(objects = OBJECTS) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/ls-emulator.ts', String(objects)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the ls emulator exited (${code}) before it was ready`)));
  });
  const urls = JSON.parse(line) as { gcs: string; s3: string };
  return {
    urls,
    stop: () => new Promise<void>((r) => (child.once('exit', () => r()), child.kill('SIGTERM'))),
  };
}

export async function benchLs() {
  const emulator = await startLsEmulator();
  const env = {
    LOCKBOARD_GCS_ENDPOINT: emulator.urls.gcs,
    AWS_ENDPOINT_URL_S3: emulator.urls.s3,
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    AWS_REGION: 'us-east-1',
  };
  // the AWS SDK reads its endpoint and credentials from the process environment
  Object.assign(process.env, env);
  const storage = new Storage({ apiEndpoint: emulator.urls.gcs, projectId: 'lockboard-bench' });
  const client = s3ClientFor(emulator.urls.s3);
  try {
    const rows = await lsVsHandWritten({
      gcs: { storage, bucket: 'cold', source: 'gs://cold/mixed/' },
      s3: { client, bucket: 'cold-s3', source: 's3://cold-s3/mixed/' },
      env,
    });
    printTable(
      `lockboard ls vs a hand-written listing, cold ${OBJECTS}-object mixed prefix, emulator in its own process`,
      rows,
    );
    writeJson('ls', { objects: OBJECTS, runs: RUNS, rows });
  } finally {
    client.destroy();
    await emulator.stop();
  }
}
