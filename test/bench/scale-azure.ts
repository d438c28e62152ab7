// npm run bench -- scale-azure (issue #48; also run by `scale`): AZURE_SCALE_SIZE blobs (100 000 by default) in one
// container of a real Azurite (npm `azurite` 3.35, a free port, stopped after): per hundred blobs 10 Terraform state
// blobs locked as azurerm locks them (an infinite lease whose id is LockInfo.ID, base64 LockInfo in `Terraformlockid`),
// 1 lease with no lock info, 1 with stale lock info and no lease, 88 plain data blobs. Up to AZURE_SEED_API_MAX blobs
// seeded through the API (SEED_CONCURRENCY requests in flight, Azurite in memory); past it, one hundred through the API
// and the rest copied in Azurite's database on disk while it is stopped (azurite-seed.ts: its uploads slow down as the
// container grows); the seed time reported. Then a bare `listBlobsFlat({ includeMetadata: true })` walk with
// @azure/storage-blob against Lockboard's cold index of the same container (the judged store, as the registry opens
// it), in the same run: time, List Blobs calls, locks found; and the index's window and filters.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ContainerClient } from '@azure/storage-blob';
import { AzureBlobs } from '@/lib/lock/stores/azure/blobs';
import { AzureLockStore } from '@/lib/lock/stores/azure/store';
import type { LockIndex } from '@/lib/lock/query/lock-index';
import { runQuery, type LockQuery } from '@/lib/lock/query/query';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { DEV_ACCOUNT, startAzurite } from '../helpers/azurite';
import { coldIndex } from './scale-stores';
import { multiplyBlobs, terraformLockMetadata } from './azurite-seed';
import { printTable, round, writeJson } from './report';

const N = Number(process.env.AZURE_SCALE_SIZE ?? 100_000);
const SEED_CONCURRENCY = Number(process.env.SEED_CONCURRENCY ?? 32);
const SEED_API_MAX = Number(process.env.AZURE_SEED_API_MAX ?? 5_000);
const CONTAINER = 'tfstate';
const STATE = JSON.stringify({ version: 4, terraform_version: '1.11.4', serial: 3, resources: [] });
const keyOf = (i: number) => `env-${String(i).padStart(6, '0')}/terraform.tfstate`;

/** One blob of the mix: its writes (an upload, and a lease on the locked ones). */
async function seedOne(c: ContainerClient, i: number): Promise<void> {
  const blob = c.getBlockBlobClient(keyOf(i));
  const k = i % 100;
  if (k < 10 || k === 11) {
    const id = randomUUID();
    const metadata = terraformLockMetadata(keyOf(i), id, `runner-${i}@ci`, CONTAINER);
    await blob.upload(STATE, STATE.length, { metadata });
    if (k < 10) await blob.getBlobLeaseClient(id).acquireLease(-1); // k === 11: stale lock info, no lease
  } else if (k === 10) {
    await blob.upload(STATE, STATE.length);
    await blob.getBlobLeaseClient(randomUUID()).acquireLease(-1);
  } else await blob.upload(STATE, STATE.length, { metadata: { team: `team-${i % 17}` } });
}

async function seed(c: ContainerClient, n: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      await seedOne(c, i);
      if ((i + 1) % 1_000 === 0) console.log(`seeded ${i + 1} blobs, ${round((performance.now() - started) / 1000)} s`);
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
  return performance.now() - started;
}

/**
 * Azurite serving N blobs of the mix: uploaded through the API up to SEED_API_MAX; past it, one hundred uploaded and
 * the rest copied in Azurite's database while it is stopped (azurite-seed.ts: its uploads slow as O(n)).
 */
async function seeded() {
  if (N <= SEED_API_MAX) {
    const az = await startAzurite();
    const seedMs = await seed(await az.container(CONTAINER), N);
    return { az, seedMs, how: `API, ${SEED_CONCURRENCY} in flight`, location: undefined };
  }
  const location = fs.mkdtempSync(path.join(os.tmpdir(), 'lb-azurite-'));
  const started = performance.now();
  const first = await startAzurite({ location });
  try {
    await seed(await first.container(CONTAINER), 100);
  } finally {
    await first.stop();
  }
  multiplyBlobs(location, N, keyOf, CONTAINER);
  const az = await startAzurite({ location });
  return { az, seedMs: performance.now() - started, how: `100 by API, ${N - 100} copied in its database`, location };
}

/** What a user would write: every page of List Blobs with metadata, the leased blobs picked out. */
async function bareWalk(c: ContainerClient) {
  const started = performance.now();
  let calls = 0;
  let blobs = 0;
  let leased = 0;
  for await (const page of c.listBlobsFlat({ includeMetadata: true }).byPage({ maxPageSize: 5_000 })) {
    calls++;
    for (const b of page.segment.blobItems) {
      blobs++;
      if (b.properties.leaseState === 'leased') leased++;
    }
  }
  return { ms: performance.now() - started, calls, blobs, leased };
}

function queries(index: LockIndex, id: string) {
  const q = (o: Partial<LockQuery>) => {
    const started = performance.now();
    const r = runQuery(
      [{ id, rows: index.rows.values(), counts: index.counts, verdicts: index.verdicts, size: index.size }],
      {
        sort: 'name',
        order: 'asc',
        limit: 100,
        ...o,
      },
    );
    return { ms: round(performance.now() - started), matched: r.matched };
  };
  return {
    'window ms': q({}).ms,
    'filter ms': q({ q: 'runner-4242@' }).ms,
    'sort expires ms': q({ sort: 'expires', order: 'desc' }).ms,
    'verdict=unknown ms': q({ verdict: 'unknown' }).ms,
  };
}

export async function benchScaleAzure(): Promise<Record<string, string | number>[]> {
  const load = os
    .loadavg()
    .map((l) => round(l, 2))
    .join(' ');
  const { az, seedMs, how, location } = await seeded();
  try {
    const c = await az.container(CONTAINER);
    console.log(`seeded ${N} blobs in ${round(seedMs / 1000, 1)} s (${how})`);
    const bare = await bareWalk(c);
    if (bare.blobs !== N) throw new Error(`the bare listing found ${bare.blobs} of ${N} blobs`);
    const blobs = new AzureBlobs(c, `azure://${DEV_ACCOUNT}/${CONTAINER}/`, az.url);
    let lists = 0;
    const list = blobs.list.bind(blobs);
    blobs.list = (...a: Parameters<typeof list>) => (lists++, list(...a));
    const store = judgedStore(new AzureLockStore({ blobs, account: DEV_ACCOUNT, container: CONTAINER }));
    const x = await coldIndex(store);
    const row = {
      store: 'Azure (Azurite 3.35)',
      blobs: N,
      'seed s': round(seedMs / 1000, 1),
      seeded: how,
      locks: x.index.size,
      leased: bare.leased,
      'bare list s': round(bare.ms / 1000, 2),
      'bare calls': bare.calls,
      'cold index s': round(x.ms / 1000, 2),
      ratio: round(x.ms / bare.ms, 2),
      'list calls': lists,
      'first page ms': round(x.firstPageMs),
      ...queries(x.index, store.source),
      load,
    };
    console.log(row);
    return [row];
  } finally {
    await az.stop();
    if (location) fs.rmSync(location, { recursive: true, force: true });
  }
}

export async function benchAzure() {
  const rows = await benchScaleAzure();
  printTable('Scale: Azure Blob Storage on Azurite, the console index vs a bare listBlobsFlat with metadata', rows);
  writeJson('scale-azure', { rows });
}
