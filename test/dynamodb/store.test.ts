// The DynamoDB store against dynalite through the official client: every format read, never a digest or a plain
// item as a lock, and a release with a version older than a successor or a heartbeat deletes nothing, per format.
import { DeleteItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditWriteError } from '@/lib/lock';
import { DynamoLockStore } from '@/lib/lock/stores/dynamodb';
import { CLAIMS_LOCK, DynamoClaims } from '@/lib/lock/stores/dynamodb/claim';
import { DynamoTable } from '@/lib/lock/stores/dynamodb/table';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';

let d: TestDynamo;
let store: DynamoLockStore;
const S = (s: string) => ({ S: s });
const info = (who: string, id: string) =>
  JSON.stringify({
    ID: id,
    Operation: 'OperationTypeApply',
    Info: '',
    Who: who,
    Version: '1.11.4',
    Created: '2026-11-24T05:00:00.123456789Z',
    Path: 'tf-state/prod/terraform.tfstate',
  });
const release = (name: string, version: string) =>
  store.forceRelease({ name, version, reason: 'test', operator: 'ops@example.com' });

beforeAll(async () => {
  d = await startDynamo();
  await d.table('tf-locks', 'LockID');
  await d.table('app-locks', 'key');
  await d.table('lockboard-audit', 'lock', 'id');
  store = new DynamoLockStore({ client: d.client, table: 'tf-locks' });
});
afterAll(async () => d?.stop());

describe('Terraform’s lock table', () => {
  it('never calls a Terraform item alive: held past the long-held limit it stays unknown, the note saying how long', async () => {
    const strict = new DynamoLockStore({ client: d.client, table: 'tf-locks', longHeldMs: 60 * 60_000 });
    await d.put('tf-locks', { LockID: S('tf-state/crashed/terraform.tfstate'), Info: S(info('ci@dead', 'dead-1')) });
    const lock = (await strict.inspect('tf-state/crashed/terraform.tfstate'))!;
    expect(Date.now() - Date.parse(lock.createdAt)).toBeGreaterThan(60 * 60_000);
    expect(lock.health).toBe('unknown');
    expect(lock.note).toMatch(/held for over 60 min with no sign of life/);
    expect(lock.terms.liveness).not.toMatch(/alive/i);
    await d.client.send(
      new DeleteItemCommand({ TableName: 'tf-locks', Key: { LockID: S('tf-state/crashed/terraform.tfstate') } }),
    );
  });

  it('reads the lock item in its own terms, with the force-unlock equivalent, and never the digest item', async () => {
    await d.put('tf-locks', {
      LockID: S('tf-state/prod/terraform.tfstate'),
      Info: S(info('ci@runner-7', 'a1b2-c3d4')),
    });
    await d.put('tf-locks', {
      LockID: S('tf-state/prod/terraform.tfstate-md5'),
      Digest: S('0f343b0931126a20f133d67c2b018a3b'),
    });
    const page = await store.list();
    expect(page.locks.map((l) => l.name)).toEqual(['tf-state/prod/terraform.tfstate']);
    expect(page.skipped).toBe(1);
    const lock = page.locks[0]!;
    expect(lock).toMatchObject({
      format: 'terraform',
      identity: 'ci@runner-7',
      health: 'unknown',
      createdAt: '2026-11-24T05:00:00.123Z',
    });
    expect(lock.details).toContainEqual(['Equivalent command', 'terraform force-unlock a1b2-c3d4']);
    expect(lock.terms.storeLabel).toBe('DynamoDB');
    const digest = await store.inspect('tf-state/prod/terraform.tfstate-md5');
    expect(digest?.releasable).toBe(false);
    expect((await release('tf-state/prod/terraform.tfstate-md5', lock.version)).outcome).toBe('not-a-lock');
    expect((await store.inspect('tf-state/prod/terraform.tfstate-md5'))?.note).toMatch(/digest/); // still there
  });

  it('deletes nothing for a version older than a successor’s, then releases the one seen, audited before and after', async () => {
    const seen = (await store.inspect('tf-state/prod/terraform.tfstate'))!;
    await d.put('tf-locks', { LockID: S('tf-state/prod/terraform.tfstate'), Info: S(info('laptop@ada', 'e5f6-0000')) });
    const stale = await release('tf-state/prod/terraform.tfstate', seen.version);
    expect(stale.outcome).toBe('changed');
    expect(stale.current?.identity).toBe('laptop@ada');
    const now = (await store.inspect('tf-state/prod/terraform.tfstate'))!;
    const done = await release('tf-state/prod/terraform.tfstate', now.version);
    expect(done.outcome).toBe('released');
    expect(done.audit).toHaveLength(2);
    expect(await store.inspect('tf-state/prod/terraform.tfstate')).toBeNull();
    const events = await store.readAudit(new Date(Date.now() - 60_000), new Date(Date.now() + 60_000));
    expect(events.map((e) => e.event)).toEqual(['force-release-requested', 'force-released']);
  });

  it('refuses a release whose attempt cannot be recorded (no audit table), deleting nothing', async () => {
    const noTrail = new DynamoLockStore({ client: d.client, table: 'tf-locks', auditTable: 'missing-audit' });
    await d.put('tf-locks', { LockID: S('tf-state/dev/terraform.tfstate'), Info: S(info('dev@box', 'dev-1')) });
    const lock = (await noTrail.inspect('tf-state/dev/terraform.tfstate'))!;
    const err = await noTrail
      .forceRelease({ name: lock.name, version: lock.version, reason: 'x', operator: 'o' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuditWriteError);
    expect((err as Error).message).toMatch(/DynamoDB audit table "missing-audit".*lockboard dynamodb init/);
    expect((err as Error).message).not.toMatch(/audit prefix/);
    expect(await noTrail.inspect('tf-state/dev/terraform.tfstate')).not.toBeNull();
  });
});

describe('the AWS lock-client family', () => {
  let lc: DynamoLockStore;
  beforeAll(() => {
    lc = new DynamoLockStore({ client: d.client, table: 'app-locks' });
  });

  it('reads leases in ms, as a Go duration and never-expiring FailClosed locks; a released item is free', async () => {
    await d.put('app-locks', {
      key: S('java'),
      ownerName: S('host-a1b2'),
      leaseDuration: S('20000'),
      recordVersionNumber: S('uuid-1'),
    });
    await d.put('app-locks', {
      key: S('go'),
      ownerName: S('b32owner'),
      leaseDuration: S('1m30s'),
      recordVersionNumber: S('1732400000:abc'),
    });
    await d.put('app-locks', {
      key: S('npm-failclosed'),
      ownerName: S('dynamodb-lock-client@0.7.3_ci@box'),
      recordVersionNumber: { B: Buffer.from('r'.repeat(64)) },
    });
    await d.put('app-locks', {
      key: S('released'),
      ownerName: S('x'),
      leaseDuration: S('20000'),
      recordVersionNumber: S('uuid-9'),
      isReleased: S('1'),
    });
    await d.put('app-locks', { key: S('user#42'), email: S('ada@example.com') });
    const page = await lc.list();
    const by = Object.fromEntries(page.locks.map((l) => [l.name, l]));
    expect(Object.keys(by).sort()).toEqual(['go', 'java', 'npm-failclosed', 'released']);
    expect(page.skipped).toBe(1);
    expect(by.java).toMatchObject({
      format: 'dynamodb-lock-client',
      identity: 'host-a1b2',
      health: 'healthy',
      ttlMs: 20_000,
    });
    expect(by.go!.ttlMs).toBe(90_000);
    expect(by['npm-failclosed']).toMatchObject({ health: 'unknown', note: expect.stringMatching(/never expires/) });
    expect(by.released!.health).toBe('free');
    expect(by.java!.terms.since).toBe('Seen since');
    expect((await lc.inspect('user#42'))?.releasable).toBe(false);
  });

  it('calls a lease expired once the same recordVersionNumber has been seen unchanged for longer than its lease', async () => {
    await d.put('app-locks', {
      key: S('short'),
      ownerName: S('dead-host'),
      leaseDuration: S('300'),
      recordVersionNumber: S('r-1'),
    });
    expect((await lc.inspect('short'))!.health).toBe('healthy');
    await new Promise((r) => setTimeout(r, 450));
    const later = (await lc.inspect('short'))!;
    expect(later.health).toBe('expired');
    expect(later.note).toMatch(/unchanged for \d+ s/);
  });

  it('answers refreshed for a heartbeat since (same owner) and changed for a successor, deleting nothing', async () => {
    const seen = (await lc.inspect('java'))!;
    await d.put('app-locks', {
      key: S('java'),
      ownerName: S('host-a1b2'),
      leaseDuration: S('20000'),
      recordVersionNumber: S('uuid-2'),
    });
    expect((await lc.forceRelease({ name: 'java', version: seen.version, reason: 'r', operator: 'o' })).outcome).toBe(
      'refreshed',
    );
    const beat = (await lc.inspect('java'))!;
    await d.put('app-locks', {
      key: S('java'),
      ownerName: S('host-zzzz'),
      leaseDuration: S('20000'),
      recordVersionNumber: S('uuid-3'),
    });
    expect((await lc.forceRelease({ name: 'java', version: beat.version, reason: 'r', operator: 'o' })).outcome).toBe(
      'changed',
    );
    expect((await lc.inspect('java'))!.identity).toBe('host-zzzz');
    const now = (await lc.inspect('java'))!;
    expect((await lc.forceRelease({ name: 'java', version: now.version, reason: 'r', operator: 'o' })).outcome).toBe(
      'released',
    );
  });
});

describe('webhook delivery claims in the audit table', () => {
  it('deletes the claims dated before the keep time on a later claim, and leaves undated ones and events', async () => {
    const table = new DynamoTable(d.client, 'tf-locks');
    const first = new DynamoClaims(table, 'lockboard-audit');
    expect(await first.claim('notify-d-old')).toBe(true);
    expect(await first.claim('notify-d-old')).toBe(false);
    // a claim as an earlier Lockboard wrote it: no date, so its age is unknown
    await d.put('lockboard-audit', { lock: S(CLAIMS_LOCK), id: S('notify-d-undated') });
    await new Promise((r) => setTimeout(r, 1_200));
    // another console keeping claims one second (two days in use): its first claim prunes
    const second = new DynamoClaims(table, 'lockboard-audit');
    expect(await second.claim('notify-d-new', 1_000)).toBe(true);
    const ids = async () => {
      const r = await d.client.send(
        new QueryCommand({
          TableName: 'lockboard-audit',
          KeyConditionExpression: '#l = :c',
          ExpressionAttributeNames: { '#l': 'lock' },
          ExpressionAttributeValues: { ':c': S(CLAIMS_LOCK) },
        }),
      );
      return (r.Items ?? []).map((i) => i.id!.S!).sort();
    };
    for (let i = 0; i < 100 && (await ids()).includes('notify-d-old'); i++) await new Promise((r) => setTimeout(r, 30));
    expect(await ids()).toEqual(['notify-d-new', 'notify-d-undated']);
    const events = await store.readAudit(new Date(0), new Date(Date.now() + 60_000));
    expect(events.filter((e) => /notify-/.test(`${e.id} ${e.lock}`))).toEqual([]);
  });
});
