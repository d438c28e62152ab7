// lockboard hold / unhold as real processes against the emulator's GCS and S3 sides: a Terraform `.tflock` written as
// Terraform writes it (LockInfo: Who names the operator and the end, Info the reason), a held name refused naming its
// holder (11), bad input refused naming the limit (2) with nothing written, and unhold a pinned release of exactly
// the hold (a replaced one refused, 11, nothing deleted), each recorded in the store's trail.
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { openSource, parseSource } from '@/lib/lock/stores';
import { runCli } from '../helpers/cli';
import { s3ClientFor } from '../helpers/s3';

let emulator: Emulator;
let env: Record<string, string>;

beforeAll(async () => {
  emulator = await startEmulator({ buckets: ['tf-state'], s3: { buckets: ['tf-state'] } });
  env = {
    LOCKBOARD_GCS_ENDPOINT: emulator.url,
    AWS_ENDPOINT_URL_S3: emulator.s3!.url,
    AWS_REGION: 'us-east-1',
  };
});
afterAll(() => emulator?.close());

async function inspect(source: string, name: string) {
  const store = await openSource(parseSource(source, env), { env, role: 'cli' });
  try {
    return await store.inspect(name);
  } finally {
    await store.close();
  }
}

async function trail(source: string, name: string) {
  const store = await openSource(parseSource(source, env), { env, role: 'cli' });
  try {
    const records = await store.readAudit(new Date(Date.now() - 3_600_000), new Date(Date.now() + 3_600_000), name);
    return records.filter((r) => r.event.startsWith('hold-'));
  } finally {
    await store.close();
  }
}

/** Writes an object as another tool would (create-only), on either side of the emulator. */
async function putObject(store: 'GCS' | 'S3', key: string, body: string) {
  if (store === 'GCS') {
    const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'test' });
    await storage
      .bucket('tf-state')
      .file(key)
      .save(body, { resumable: false, preconditionOpts: { ifGenerationMatch: 0 } });
    return;
  }
  const client = s3ClientFor(emulator.s3!.url);
  await client.send(new PutObjectCommand({ Bucket: 'tf-state', Key: key, Body: body, IfNoneMatch: '*' }));
  client.destroy();
}

const CASES = [
  { store: 'GCS' as const, source: 'gs://tf-state/prod/', name: 'prod/default.tflock' },
  { store: 'S3' as const, source: 's3://tf-state/envs/', name: 'envs/prod/terraform.tfstate.tflock' },
];

describe.each(CASES)('lockboard hold on $store', ({ store, source, name }) => {
  const put = (key: string, body: string) => putObject(store, key, body);
  const hold = (...args: string[]) => runCli(['hold', source, name, ...args], env);

  it('writes a Terraform LockInfo naming the operator, the end and the reason, and refuses a second hold (11)', async () => {
    const r = await hold('--reason', 'INC-123 state surgery', '--for', '2h', '--operator', 'alice');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('as Terraform LockInfo by alice until');
    expect(r.stdout).toContain('Nothing ends it by itself');
    const view = (await inspect(source, name))!;
    expect(view.format).toBe('terraform');
    expect(view.identity).toMatch(/^alice \(lockboard hold until \d{4}-\d\d-\d\dT[\d:.]+Z\)$/);
    expect(view.details).toContainEqual(['Info', 'INC-123 state surgery']);
    const until = Date.parse(/until (\S+)\)/.exec(view.identity!)![1]!);
    expect(until - Date.parse(view.createdAt)).toBe(2 * 3_600_000);

    const again = await hold('--reason', 'mine now', '--for', '1h', '--operator', 'bob');
    expect(again.code).toBe(11);
    expect(again.stderr).toContain('is held by alice (lockboard hold until');
    expect((await inspect(source, name))!.version).toBe(view.version);
    const records = await trail(source, name);
    expect(records.map((x) => [x.event, x.operator, x.reason, x.until])).toEqual([
      ['hold-placed', 'alice', 'INC-123 state surgery', new Date(until).toISOString()],
    ]);
  });

  it('refuses an unhold pinned to another version (11), deleting nothing; then ends exactly the hold (0), then 12', async () => {
    const before = (await inspect(source, name))!;
    const wrong = await runCli(['unhold', source, name, '--version', `${before.version}0`], env);
    expect(wrong.code).toBe(11);
    expect(wrong.stderr).toContain('Nothing was deleted');
    expect((await inspect(source, name))!.version).toBe(before.version);

    const end = await runCli(['unhold', source, name, '--operator', 'carol', '--version', before.version], env);
    expect(end.code, end.stderr).toBe(0);
    expect(end.stdout).toContain(`(version ${before.version})`);
    expect(await inspect(source, name)).toBeNull();
    const records = await trail(source, name);
    expect(records.map((x) => [x.event, x.operator, x.reason])).toEqual([
      ['hold-placed', 'alice', 'INC-123 state surgery'],
      ['hold-ended', 'carol', 'INC-123 state surgery'],
    ]);
    expect((await runCli(['unhold', source, name], env)).code).toBe(12);
  });

  it.each([
    ['a reason over 500 characters', ['--reason', 'x'.repeat(501), '--for', '1h'], /at most 500/],
    ['a control character in the reason', ['--reason', 'a\u001b[31mb', '--for', '1h'], /control characters/],
    ['a newline in the reason', ['--reason', 'a\nb', '--for', '1h'], /control characters/],
    ['longer than Terraform holds', ['--reason', 'r', '--for', '31d'], /at most 30d 0h \(Terraform never ends/],
    ['longer than any duration', ['--reason', 'r', '--for', '400d'], /at most 366 days/],
    ['an unknown format', ['--reason', 'r', '--for', '1h', '--format', 'shedlock'], /use one of terraform/],
    ['no --for', ['--reason', 'r'], /--for is required/],
  ])('refuses %s (2), naming the limit, writing nothing', async (_, args, message) => {
    const r = await hold(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(await inspect(source, name)).toBeNull();
  });

  it('says in ls and why who holds it, why and until when; once passed, that nothing ended it', async () => {
    const held = await hold('--reason', 'short surgery', '--for', '1s', '--operator', 'dora');
    expect(held.code, held.stderr).toBe(0);
    const why = await runCli(['why', source, name], env);
    expect(why.stdout).toMatch(/Held on purpose by dora · short surgery · until \d{4}-\d\d-\d\d [\d:]+ UTC/);
    await new Promise((res) => setTimeout(res, 1_500));
    const ls = await runCli(['ls', source], env);
    expect(ls.stdout).toContain(`HOLD ${name}: Held on purpose by dora · short surgery · until`);
    expect(ls.stdout).toMatch(/: passed \d+s ago; nothing has ended it \(no console was running then\)/);
    expect((await runCli(['unhold', source, name], env)).code).toBe(0);
  });

  it('refuses to end what is no hold (Terraform’s own lock), deleting nothing (11)', async () => {
    const lockInfo = { ID: 'a1b2-c3', Operation: 'OperationTypeApply', Who: 'ann@ci', Info: '', Path: 'p' };
    await put(name, JSON.stringify(lockInfo));
    const before = (await inspect(source, name))!;
    expect(before.identity).toBe('ann@ci');
    const r = await runCli(['unhold', source, name], env);
    expect(r.code).toBe(11);
    expect(r.stderr).toContain('is no hold: it is held by ann@ci');
    expect((await inspect(source, name))!.version).toBe(before.version);
    const held = await hold('--reason', 'r', '--for', '1h');
    expect(held.code).toBe(11);
    expect(held.stderr).toContain('is held by ann@ci');
  });
});

describe('lockboard hold --help and unhold --help', () => {
  it('say what is written, what ends it, and the exit codes', async () => {
    const h = await runCli(['hold', '--help'], env);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('Usage: lockboard hold SOURCE NAME --reason TEXT --for DURATION');
    expect(h.stdout).toMatch(/Stores that can hold: Cloud Storage, S3/);
    const u = await runCli(['unhold', '--help'], env);
    expect(u.code).toBe(0);
    expect(u.stdout).toContain('pinned release of exactly the hold read');
  });
});
