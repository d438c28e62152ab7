// The demo keeps every trail in its data directory: a second and a third start find the Redis stream, the DynamoDB
// audit table and the lock-file trail as the last run left them (they came back empty, with no note), while the
// locks themselves start afresh.
import { DynamoDBClient, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { BlobServiceClient } from '@azure/storage-blob';
import { startDemoAzure } from '@/lib/demo/azure';
import { startDemoDynamo } from '@/lib/demo/dynamodb';
import { startDemoFiles } from '@/lib/demo/files';
import { startDemoRedis } from '@/lib/demo/redis';
import { startDemoZooKeeper } from '@/lib/demo/zookeeper';
import { connectZooKeeper } from '@/lib/lock/stores/zookeeper/conn';
import { parseZooKeeperSource } from '@/lib/lock/stores/zookeeper/source';
import { Stopper } from '@/lib/demo/stopper';
import { freePort } from '../helpers/browser';

const dataDir = () => mkdtempSync(join(tmpdir(), 'lockboard-demo-trails-'));

describe('the demo’s trails across restarts', () => {
  it('keeps the Redis audit stream, and only it, over three starts', async () => {
    const dir = dataDir();
    for (const run of [1, 2, 3]) {
      const stopper = new Stopper();
      const demo = (await startDemoRedis(await freePort(), stopper, dir))!;
      const client = createClient({ url: demo.url });
      await client.connect();
      await client.sendCommand(['XADD', 'lockboard:audit', '*', 'event', 'force-released', 'lock', `run-${run}`]);
      const entries = (await client.sendCommand(['XRANGE', 'lockboard:audit', '-', '+'])) as [string, string[]][];
      expect(entries.filter(([, fields]) => fields.some((f) => f.startsWith('run-')))).toHaveLength(run);
      if (run === 1) await client.sendCommand(['SET', 'left:over', '1']);
      else expect(await client.sendCommand(['EXISTS', 'left:over'])).toBe(0);
      await client.quit();
      stopper.stop();
      await demo.stop();
      await new Promise((r) => setTimeout(r, 300)); // redis-server writes its append-only file as it exits
    }
  }, 60_000);

  it('keeps the DynamoDB audit table over three starts, its lock tables made afresh', async () => {
    const dir = dataDir();
    for (const run of [1, 2, 3]) {
      const stopper = new Stopper();
      const demo = await startDemoDynamo(await freePort(), stopper, dir);
      const credentials = { accessKeyId: 'demo', secretAccessKey: 'demo' };
      const client = new DynamoDBClient({ region: 'us-east-1', endpoint: demo.endpoint, credentials });
      const Item = { lock: { S: 'state/prod' }, id: { S: `run-${run}` } };
      await client.send(new PutItemCommand({ TableName: 'lockboard-audit', Item }));
      const { Items = [] } = await client.send(new ScanCommand({ TableName: 'lockboard-audit' }));
      expect(Items.filter((i) => i.lock?.S === 'state/prod')).toHaveLength(run);
      const jobs = await client.send(new ScanCommand({ TableName: 'jobs' }));
      expect(jobs.Items?.some((i) => i.key?.S === 'left-over')).toBe(false);
      await client.send(new PutItemCommand({ TableName: 'jobs', Item: { key: { S: 'left-over' } } }));
      client.destroy();
      stopper.stop();
      await demo.stop();
    }
  }, 60_000);

  it('keeps the Azure trail (.lockboard/audit/ blobs) over three starts, the last run’s leased blobs cleared', async () => {
    const dir = dataDir();
    for (const run of [1, 2, 3]) {
      const stopper = new Stopper();
      const demo = await startDemoAzure(stopper, dir);
      const service = BlobServiceClient.fromConnectionString(demo.env.AZURE_STORAGE_CONNECTION_STRING);
      const jobs = service.getContainerClient('jobs');
      await jobs.getBlockBlobClient(`.lockboard/audit/run-${run}.json`).upload('{}', 2);
      const names: string[] = [];
      for await (const b of jobs.listBlobsFlat({ prefix: '.lockboard/audit/run-' })) names.push(b.name);
      expect(names).toHaveLength(run);
      // the crashed apply's infinite lease is the seed's own, made afresh each start
      const tf = service.getContainerClient('tfstate').getBlobClient('prod.terraform.tfstate');
      expect((await tf.getProperties()).leaseState).toBe('leased');
      stopper.stop();
      await Promise.allSettled(demo.loops);
      await demo.stop();
    }
  }, 120_000);

  it('keeps the ZooKeeper trail (.lockboard/audit) over two starts, the last run’s znodes cleared', async () => {
    const dir = dataDir();
    for (const run of [1, 2]) {
      const stopper = new Stopper();
      const demo = await startDemoZooKeeper(await freePort(), stopper, dir);
      if (!demo) return; // ZooKeeper not installed: the demo shows none
      const conn = await connectZooKeeper(parseZooKeeperSource(demo.url));
      await conn.mkdirp('/.lockboard/audit');
      await conn.create(`/.lockboard/audit/run-${run}`, Buffer.from('{}'), 0);
      expect((await conn.children('/.lockboard/audit')).filter((n) => n.startsWith('run-'))).toHaveLength(run);
      if (run === 1) await conn.mkdirp('/left/over');
      else expect(await conn.exists('/left/over')).toBeNull();
      conn.client.close();
      stopper.stop();
      await Promise.allSettled(demo.loops);
      await demo.stop();
    }
  }, 180_000);

  it('keeps the lock-file trail (.lockboard) and clears the last run’s lock files', async () => {
    const dir = dataDir();
    const trail = join(dir, 'lock-files', '.lockboard');
    mkdirSync(trail, { recursive: true });
    writeFileSync(join(trail, 'kept.json'), '{}');
    writeFileSync(join(dir, 'lock-files', 'left-over.lock'), '');
    const stopper = new Stopper();
    const files = await startDemoFiles(dir, stopper);
    expect(readdirSync(trail)).toContain('kept.json');
    expect(readdirSync(join(dir, 'lock-files'))).not.toContain('left-over.lock');
    stopper.stop();
    await files.stop();
  }, 60_000);
});
