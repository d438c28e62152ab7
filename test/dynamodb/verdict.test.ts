// The verdict on DynamoDB lock holders (stores.md "Verdict"), from items written as the lock clients write them
// (awslabs/amazon-dynamodb-lock-client: key, ownerName, leaseDuration in ms, a fresh recordVersionNumber per
// heartbeat): a heartbeating holder is alive, a crashed one expired (unknown, never gone: a rule is no evidence of absence) once its version stayed the same past its lease, one
// read unknown with the lease to wait; Terraform's item unknown. The CLI says the same: `status` one-shot never calls
// the crashed holder healthy, `why --settle` / `status --settle` read twice and say expired.
import { randomUUID } from 'node:crypto';
import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoLockStore } from '@/lib/lock/stores/dynamodb';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { runCli } from '../helpers/cli';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';

let d: TestDynamo;
let env: Record<string, string>;
const S = (s: string) => ({ S: s });
const LEASE = 2000;
const timers: NodeJS.Timeout[] = [];

beforeAll(async () => {
  d = await startDynamo();
  env = { AWS_ENDPOINT_URL_DYNAMODB: d.url, AWS_REGION: 'us-east-1' };
  await d.table('app-locks', 'key');
  await d.table('tf-locks', 'LockID');
  await d.table('lockboard-audit', 'lock', 'id');
}, 30_000);
afterAll(async () => {
  timers.forEach(clearInterval);
  await d?.stop();
});

/** An item as the Java lock client writes it at acquire. */
const acquire = (key: string, owner: string) =>
  d.put('app-locks', {
    key: S(key),
    ownerName: S(owner),
    leaseDuration: S(String(LEASE)),
    recordVersionNumber: S(randomUUID()),
  });

/** The Java client's heartbeat: a new recordVersionNumber every 500 ms, conditioned on the item being there. */
function heartbeat(key: string): void {
  const beat = () =>
    d.client
      .send(
        new UpdateItemCommand({
          TableName: 'app-locks',
          Key: { key: S(key) },
          UpdateExpression: 'SET #rvn = :rvn, #ld = :ld',
          ConditionExpression: 'attribute_exists(#pk)',
          ExpressionAttributeNames: { '#rvn': 'recordVersionNumber', '#ld': 'leaseDuration', '#pk': 'key' },
          ExpressionAttributeValues: { ':rvn': S(randomUUID()), ':ld': S(String(LEASE)) },
        }),
      )
      .catch(() => undefined);
  timers.push(setInterval(beat, 500));
}

async function until<T>(fn: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('DynamoDB lock holders judged by their heartbeats', () => {
  it('judges a heartbeating lock client alive, a crashed one expired (never gone) after its lease, one read unknown', async () => {
    await acquire('kcl-leader', 'worker-1');
    heartbeat('kcl-leader');
    await acquire('hudi-commit', 'writer-crashed');
    const store = judgedStore(new DynamoLockStore({ client: d.client, table: 'app-locks' }));
    const verdictOf = async (name: string) => (await store.list()).locks.find((l) => l.name === name);
    const once = (await verdictOf('hudi-commit'))!;
    expect(once.verdict).toBe('unknown');
    expect(once.sentence).toMatch(/^Unknown: seen once: a lease of 2 s is judged by two reads; a second read after/);
    expect(once.settleMs).toBeGreaterThanOrEqual(LEASE);
    expect(once.health).not.toBe('expired');

    const alive = await until(async () => {
      const v = await verdictOf('kcl-leader');
      return v?.verdict === 'alive' ? v : undefined;
    });
    expect(alive.sentence).toMatch(/^Alive: its recordVersionNumber changed between two reads, \d+ s ago/);
    expect(alive.evidence?.[0]).toMatchObject({ from: 'two reads of recordVersionNumber' });

    // unchanged past its lease: expired by the lock clients' rule, but a rule is no evidence that its holder is gone
    const expired = await until(async () => {
      const v = await verdictOf('hudi-commit');
      return v?.health === 'expired' ? v : undefined;
    });
    expect(expired.verdict).toBe('unknown');
    expect(expired.sentence).toMatch(
      /^Unknown: its recordVersionNumber stayed the same for \d+ s, longer than its 2 s lease: the lock clients take it over by this rule; that expires the lock, but nothing read shows whether its holder still runs\.$/,
    );
    expect((await verdictOf('kcl-leader'))!.verdict).toBe('alive');
  }, 30_000);

  it('leaves Terraform’s item unknown, saying what would settle it', async () => {
    const info = JSON.stringify({ ID: 'id-1', Operation: 'OperationTypeApply', Who: 'ci@runner-9', Created: '' });
    await d.put('tf-locks', { LockID: S('state/prod.tfstate'), Info: S(info) });
    const store = judgedStore(new DynamoLockStore({ client: d.client, table: 'tf-locks' }));
    const lock = (await store.inspect('state/prod.tfstate'))!;
    expect(lock.verdict).toBe('unknown');
    expect(lock.sentence).toMatch(/no heartbeat; only its Who \(ci@runner-9\) can say/);
    expect(lock.settleMs).toBeUndefined();
  });
});

describe('lockboard status / why on a crashed lock client', () => {
  it('never says healthy from one read; --settle reads again and says expired, never gone', async () => {
    await acquire('crashed-cli', 'worker-9');
    const one = await runCli(['status', 'dynamodb://app-locks', 'crashed-cli'], env);
    expect(one.stdout).not.toMatch(/healthy/);
    expect(one.stdout).toMatch(/state +held \(holder unknown\)/);
    expect(one.stdout).toMatch(/verdict +Unknown: seen once: .*Run with --settle to read again after 3 s\./);

    const settled = await runCli(['status', 'dynamodb://app-locks', 'crashed-cli', '--settle'], env);
    expect(settled.stderr).toMatch(/Waiting 3 s to read crashed-cli again/);
    expect(settled.stdout).toMatch(
      /verdict +Unknown: its recordVersionNumber stayed the same .* by this rule; that expires the lock/,
    );
    expect(settled.stdout).toMatch(/state +free \(expired/);
    expect(settled.code).toBe(10);

    const why = await runCli(['why', 'dynamodb://app-locks', 'crashed-cli', '--settle', '--json'], env);
    expect(why.code).toBe(0);
    expect(JSON.parse(why.stdout)).toMatchObject({ verdict: 'unknown', name: 'crashed-cli' });
  }, 30_000);
});
