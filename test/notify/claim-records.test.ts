// Every store's delivery claims as leases (claim-lease.ts), on real servers: each change one conditional write of the
// store's own. Of two replicas claiming at once one wins; the claim is renewed, refused to a replica while its lease
// runs, taken over by one replica once it ran out (its attempts kept), refused to the replica it was taken from
// (renewal and settlement), settled and never taken again; and a claim is never listed as a lock nor read as an event.
// Times are passed to the protocol, so nothing here waits for a lease to run out.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renewClaim, settleClaim, takeClaim, type ClaimRecords } from '@/lib/lock/claim-lease';
import type { ClaimingStore, LockStore } from '@/lib/lock/store';
import { openSource, parseSource } from '@/lib/lock/stores';
import { claimKey } from '@/lib/server/notify/claims';
import { startAzurite, type TestAzurite } from '../helpers/azurite';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';
import { startEtcd, type TestEtcd } from '../helpers/etcd';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { startMariadb, type TestMariadb } from '../helpers/mariadb';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { startRedis, type TestRedis } from '../helpers/redis';
import { startKube, type TestKube } from '../helpers/kubernetes';
import { startS3, type S3Target } from '../helpers/s3';
import { startZooKeeper } from '../helpers/zookeeper';
import type { ZooKeeperServer } from '@/lib/demo/zookeeper-server';

let gcs: Target, s3: S3Target, dynamo: TestDynamo, redis: TestRedis, pg: TestPostgres;
let maria: TestMariadb, etcd: TestEtcd, az: TestAzurite, zk: ZooKeeperServer;
let dir: string;
let env: Record<string, string | undefined>;
const opened: LockStore[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lb-claims-'));
  [gcs, s3, dynamo, redis, pg, maria, etcd, az, zk] = await Promise.all([
    startTestEmulator(),
    startS3(['tf-state']),
    startDynamo(),
    startRedis(),
    startPostgres(),
    startMariadb(),
    startEtcd(),
    startAzurite(),
    startZooKeeper(),
  ]);
  await Promise.all([dynamo.table('tf-locks', 'LockID'), dynamo.table('lockboard-audit', 'lock', 'id')]);
  await az.container('tfstate');
  // the AWS SDK reads its credentials from the process's environment
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_REGION: 'us-east-1' });
  env = {
    ...process.env,
    ...az.env,
    LOCKBOARD_GCS_ENDPOINT: gcs.emulator!.url,
    AWS_ENDPOINT_URL_S3: s3.url,
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.url,
  };
}, 180_000);
afterAll(async () => {
  await Promise.allSettled(opened.map((s) => s.close()));
  await Promise.allSettled([gcs, s3].map((t) => t?.close()));
  await Promise.allSettled([dynamo, redis, pg, maria, etcd, az, zk].map((t) => t?.stop()));
  rmSync(dir, { recursive: true, force: true });
});

const SOURCES: [string, () => string][] = [
  ['GCS', () => `gs://${gcs.bucket}/`],
  ['S3', () => 's3://tf-state/'],
  ['Azure Blob', () => 'azure://devstoreaccount1/tfstate/'],
  ['DynamoDB', () => 'dynamodb://tf-locks'],
  ['Redis', () => `${redis.url}/0`],
  ['PostgreSQL', () => pg.url],
  ['MariaDB', () => maria.url],
  ['etcd', () => `etcd://${etcd.endpoint}/app/`],
  ['ZooKeeper', () => `zookeeper://${zk.hosts}/app`],
  ['lock files', () => `file://${dir}?depth=3`],
];

async function open(url: string): Promise<LockStore> {
  const store = await openSource(parseSource(url, env), { env, role: 'cli' });
  opened.push(store);
  return store;
}

/** The store's claim records, as it hands them to a lease (none: it keeps create-only markers). */
async function recordsOf(store: LockStore, key: string): Promise<ClaimRecords | undefined> {
  let records: ClaimRecords | undefined;
  await (store as ClaimingStore).claim(key, async (r) => {
    records = r;
    return false;
  });
  return records;
}

const LEASE = 60_000;

describe('delivery claims as leases on every store that keeps them', () => {
  it.each(SOURCES)('on %s', (_, url) => checkLeases(url()));
});

describe('delivery claims as leases on Kubernetes', () => {
  let kube: TestKube;
  beforeAll(async () => {
    kube = await startKube({ rbac: true });
  }, 180_000);
  afterAll(() => kube?.stop());

  it('takes a claim over by a PUT pinned to its resourceVersion, as the console’s own Role (it has no delete)', async () => {
    for (const f of ['namespace.yaml', 'rbac.yaml']) {
      const r = kube.kubectl(['apply', '-f', `deploy/kubernetes/${f}`]);
      expect(r.code, r.stderr).toBe(0);
    }
    // the console's ServiceAccount, by impersonation (kubeconfig `as`)
    const config = readFileSync(kube.env.KUBECONFIG!, 'utf8').replace(
      /(    token: .*\n)/,
      '$1    as: system:serviceaccount:lockboard:lockboard-console\n',
    );
    const file = join(mkdtempSync(join(tmpdir(), 'lb-kube-')), 'kubeconfig');
    writeFileSync(file, config);
    env = { ...env, KUBECONFIG: file };
    await checkLeases('kubernetes://lockboard');
  });
});

async function checkLeases(url: string): Promise<void> {
  {
    const [a, b] = [await open(url), await open(url)];
    const key = claimKey(`${Date.now()}-${Math.random()}`, 'team');
    const [ra, rb] = [(await recordsOf(a, key))!, (await recordsOf(b, key))!];
    expect(ra && rb).toBeTruthy();
    const now = a.now();
    const both = await Promise.all([takeClaim(ra, key, 'a', now, LEASE), takeClaim(rb, key, 'b', now, LEASE)]);
    expect(both.filter((r) => r.held)).toHaveLength(1);
    const [winner, wr] = both[0]!.held ? (['a', ra] as const) : (['b', rb] as const);
    const [other, or] = winner === 'a' ? (['b', rb] as const) : (['a', ra] as const);
    const held = (both[0]!.held ?? both[1]!.held)!;
    const renewed = (await renewClaim(wr, held, now + 1_000, LEASE, 2))!;
    expect(renewed.lease).toMatchObject({ owner: winner, attempts: 2, until: now + 1_000 + LEASE });
    expect(await takeClaim(or, key, other, now + 2_000, LEASE)).toMatchObject({ lease: { owner: winner } });
    const later = now + 1_000 + LEASE + 1;
    const taken = await takeClaim(or, key, other, later, LEASE);
    expect(taken.held?.lease).toMatchObject({ owner: other, attempts: 2, state: 'pending' });
    expect(await renewClaim(wr, renewed, later, LEASE)).toBeNull();
    expect(await settleClaim(wr, renewed, 'delivered')).toBeNull();
    let mine = taken.held!;
    for (let i = 1; i <= 4; i++) mine = (await renewClaim(or, mine, later + i, LEASE, 2 + i))!; // a few writes on
    expect(await takeClaim(wr, key, winner, later + 5, LEASE)).toMatchObject({
      lease: { owner: other, attempts: 6, until: later + 4 + LEASE },
    });
    expect(await settleClaim(or, mine, 'delivered', 3)).not.toBeNull();
    expect(await takeClaim(wr, key, winner, later + 10 * LEASE, LEASE)).toMatchObject({
      lease: { state: 'delivered', owner: other, attempts: 3 },
    });
    const page = await a.list();
    expect(page.locks.filter((l) => /claim|notify-/.test(l.name))).toEqual([]);
    const trail = await a.readAudit(new Date(Date.now() - 60_000), new Date(Date.now() + 60_000));
    expect(trail.filter((e) => /claim|notify-/.test(e.lock + e.id))).toEqual([]);
  }
}
