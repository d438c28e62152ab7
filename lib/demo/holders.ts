// Simulated lock holders for the demo, all through lib/lock: a long healthy holder, churny workers (some failing),
// a crashing holder that goes overdue then expired and is taken over, contenders on one lock, and foreign locks.
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Storage } from '@google-cloud/storage';
import { acquireLock, withLock, type Lock } from '../lock';
import { signalGroup, spawnGroup } from './children';
import { startPlatformHolders } from './platform';
import { startS3Holders } from './s3';
import { sleep } from './sleep';
import { Stopper } from './stopper';

export interface Holders {
  stop(): Promise<void>;
}

const between = (min: number, max: number) => min + Math.random() * (max - min);

type Base = { storage: Storage; bucket: string };
/** Starts a loop that runs `fn` until the stop; its failures are part of the show (withLock records them). */
type Loop = (fn: (signal: AbortSignal) => Promise<void>) => void;

/** Churny workers on three locks, some failing, and four contenders handing one lock on. */
function workers(base: Base, loop: Loop, speed: number): void {
  for (const [name, fail] of [
    ['locks/etl-hourly', 0.2],
    ['locks/publish-npm', 0.1],
    ['ci/build-cache', 0.3],
  ] as const) {
    loop(async (signal) => {
      await withLock({ ...base, name, ttlMs: 20_000, purpose: 'short critical section', signal }, async () => {
        await sleep(between(800, 3500) / speed, signal);
        if (Math.random() < fail) throw new Error(`simulated failure in ${name.split('/')[1]}: exit code 1`);
      });
      await sleep(between(1000, 3000) / speed, signal);
    });
  }
  for (let i = 0; i < 4; i++) {
    loop(async (signal) => {
      await withLock(
        {
          ...base,
          name: 'locks/db-migrations',
          identity: `migrator-${i}:${1000 + i}:${String(i).repeat(8)}`,
          ttlMs: 15_000,
          purpose: 'schema migration',
          signal,
        },
        () => sleep(between(1000, 2500) / speed, signal),
      );
    });
  }
}

/**
 * A holder process that crashes (SIGKILL) while holding the lock: it turns overdue, then expired, then a retry job
 * takes it over (a took-over event naming the crashed holder) and releases it.
 */
function crashingHolder(base: Base, loop: Loop, speed: number): void {
  loop(async (signal) => {
    await crashHolder(base.storage, base.bucket, 'locks/nightly-report', 30_000 / speed, signal);
    await sleep(45_000 / speed, signal);
    if (signal.aborted) return;
    const retry = { name: 'locks/nightly-report', identity: 'report-retry:4343:feedf00d', ttlMs: 30_000 };
    await withLock({ ...base, ...retry, purpose: 'nightly report (retry)', signal }, () =>
      sleep(3_000 / speed, signal),
    );
    await sleep(5_000 / speed, signal);
  });
}

export async function startHolders(
  storage: Storage,
  bucket: string,
  options: { speed?: number; s3?: S3Client } = {},
): Promise<Holders> {
  const speed = options.speed ?? 1;
  const stop = new Stopper();
  const base = { storage, bucket };
  const loops: Promise<void>[] = [];
  const loop: Loop = (fn) =>
    loops.push(
      (async () => {
        const signal = stop.signal();
        while (!signal.aborted) await fn(signal).catch(() => undefined);
      })(),
    );
  const held: Lock[] = [
    await acquireLock({
      ...base,
      name: 'locks/deploy-prod',
      identity: 'deploy-runner-1:812:a1b2c3d4',
      ttlMs: 60_000,
      purpose: 'terraform apply prod',
    }),
  ];
  await writeForeignLocks(storage, bucket);
  workers(base, loop, speed);
  crashingHolder(base, loop, speed);
  loops.push(...(await startPlatformHolders(storage, stop)));
  const s3 = options.s3 ? await startS3Holders(options.s3, stop) : { loops: [], held: [] };
  loops.push(...s3.loops);
  return {
    async stop() {
      stop.stop();
      await Promise.allSettled(loops);
      await Promise.allSettled([...held.map((l) => l.release()), ...s3.held.map((l) => l.release())]);
    },
  };
}

/** A Ruby-format lock and a Terraform state lock: shown by the console, never taken over by the lock core. */
async function writeForeignLocks(storage: Storage, bucket: string): Promise<void> {
  const b = storage.bucket(bucket);
  const put = async (name: string, body: string, metadata: Record<string, string>) => {
    try {
      await b.file(name).save(body, {
        resumable: false,
        metadata: { contentType: 'application/json', metadata },
        preconditionOpts: { ifGenerationMatch: 0 },
      });
    } catch (err) {
      if ((err as { code?: number }).code !== 412) throw err; // already there from an earlier run
    }
  };
  await put('locks/sidekiq-cron', '', {
    identity: 'sidekiq-7f9c:31',
    expires_at: String(Math.floor(Date.now() / 1000) + 6 * 3600),
  });
  const tf = {
    ID: 'f2a1c9e0-7d1b-4c55-9d0e-3b8f5c2a9e11',
    Operation: 'OperationTypeApply',
    Info: '',
    Who: 'ann@laptop-ann',
    Version: '1.9.5',
    Created: new Date().toISOString(),
    Path: 'gs://lockboard-demo/terraform/prod.tfstate',
  };
  await put('locks/terraform/prod.tflock', JSON.stringify(tf), {});
}

/** Runs a holder in a child process and kills it with SIGKILL once it holds the lock. */
async function crashHolder(
  storage: Storage,
  bucket: string,
  name: string,
  ttlMs: number,
  signal: AbortSignal,
): Promise<void> {
  const script = join(import.meta.dirname, 'crash-holder.ts');
  const child = spawnGroup(
    process.execPath,
    ['--import', 'tsx', script, storage.apiEndpoint, bucket, name, String(Math.round(ttlMs))],
    {
      cwd: join(import.meta.dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = () => signalGroup(child, 'SIGKILL');
  signal.addEventListener('abort', kill, { once: true });
  await new Promise<void>((resolve) => {
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('acquired')) resolve();
    });
    void exited.then(resolve);
  });
  await sleep(2_000, signal);
  kill();
  await exited;
  signal.removeEventListener('abort', kill);
}
