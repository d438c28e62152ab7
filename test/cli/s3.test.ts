// The lockboard command on s3:// sources, as real processes against the emulator's S3 side.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lsVerdicts, runCli } from '../helpers/cli';
import { startS3, type S3Target } from '../helpers/s3';

let s: S3Target;
let env: Record<string, string>;
beforeAll(async () => {
  s = await startS3(['tf-state']);
  env = { AWS_ENDPOINT_URL_S3: s.url, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'y' };
  const put = (Key: string, Body: string) =>
    s.client.send(new PutObjectCommand({ Bucket: 'tf-state', Key, Body, IfNoneMatch: '*' }));
  await put('envs/prod/terraform.tfstate', '{"version":4}');
  await put(
    'envs/prod/terraform.tfstate.tflock',
    JSON.stringify({
      ID: 'a1b2-c3',
      Operation: 'OperationTypeApply',
      Who: 'ann@ci',
      Path: 'tf-state/envs/prod/terraform.tfstate',
    }),
  );
});
afterAll(() => s.close());

interface Listed {
  source: string;
  skipped: number;
  locks: {
    name: string;
    store: string;
    source: string;
    format: string;
    identity: string;
    version: string;
    versionLabel: string;
  }[];
}

describe('lockboard on s3:// sources', () => {
  it('lists with ls s3://bucket/prefix --json in the shape every store shares', async () => {
    const r = await runCli(['ls', 's3://tf-state/envs/', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Listed;
    expect(out.source).toBe('s3://tf-state/envs/');
    expect(out.skipped).toBe(1);
    expect(out.locks).toHaveLength(1);
    expect(out.locks[0]).toMatchObject({
      name: 'envs/prod/terraform.tfstate.tflock',
      store: 's3',
      source: 's3://tf-state/envs/',
      format: 'terraform',
      identity: 'ann@ci',
    });
    expect(out.locks[0]!.version).toMatch(/^[0-9a-f]{32}\.\d+$/);
    const table = await runCli(['ls', 's3://tf-state/envs/'], env);
    expect(table.stdout).toMatch(/envs\/prod\/terraform\.tfstate\.tflock\s+unknown\s+ann@ci/);
  });

  it('prints in the table the verdict ls --json gives, on a cold listing whose bodies are read after the page', async () => {
    // each command is a new process: its store has read no body yet, so the table's listing reads them later
    const ls = await lsVerdicts(['s3://tf-state/envs/'], env);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.locks).toEqual([{ json: 'unknown', table: 'unknown' }]);
  });

  it('shows one lock by its whole URL with the force-unlock equivalent, and releases only the version seen', async () => {
    const url = 's3://tf-state/envs/prod/terraform.tfstate.tflock';
    const status = await runCli(['status', url], env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('terraform force-unlock a1b2-c3');
    const version = (JSON.parse((await runCli(['status', url, '--json'], env)).stdout) as { version: string }).version;
    const stale = `${'0'.repeat(32)}.${version.split('.')[1]}`;
    const refused = await runCli(['release', url, '--version', stale, '--reason', 'stuck'], env);
    expect(refused.code).toBe(11);
    expect(refused.stdout).toMatch(/Refused: .* changed hands since you looked/);
    const bad = await runCli(['release', url, '--version', 'abc', '--reason', 'stuck'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/is not a version of s3:\/\/.*an S3 version is ETAG/);
    const data = await runCli(
      ['release', 's3://tf-state/envs/', 'prod/terraform.tfstate', '--version', version, '--reason', 'x'],
      env,
    );
    expect(data.code).toBe(13);
    const done = await runCli(['release', url, '--version', version, '--reason', 'apply killed'], env);
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect((await runCli(['status', url], env)).code).toBe(10);
    expect((await runCli(['release', url, '--version', version, '--reason', 'again'], env)).code).toBe(12);
  });

  it('runs a command under an S3 lock with a fencing token, and fails fast with --no-wait while it is held', async () => {
    // the holder keeps the lock until the test says so (a fixed sleep raced the second command on a busy machine)
    const go = join(mkdtempSync(join(tmpdir(), 'lb-s3-')), 'go');
    const hold = runCli(
      [
        'run',
        '--source',
        's3://tf-state/locks/',
        'deploy',
        '--ttl',
        '10s',
        '--',
        'sh',
        '-c',
        `echo $LOCKBOARD_FENCING_TOKEN; while [ ! -e ${go} ]; do sleep 0.1; done`,
      ],
      env,
    );
    for (let i = 0; i < 100 && (await runCli(['status', 's3://tf-state/locks/deploy'], env)).code !== 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    const busy = await runCli(['run', 's3://tf-state/locks/deploy', '--no-wait', '--', 'true'], env);
    writeFileSync(go, '');
    expect(busy.code).toBe(75);
    expect(busy.stderr).toMatch(/is held \(--no-wait: not waiting\).* held by/);
    const held = await hold;
    expect(held.code, held.stderr).toBe(0);
    expect(held.stdout.trim()).toMatch(/^\d+$/);
    const after = await runCli(['run', 's3://tf-state/locks/deploy', '--no-wait', '--', 'true'], env);
    expect(after.code, after.stderr).toBe(0);
  });

  it('names the problem with a bad s3:// URL or a prefix where a lock is expected', async () => {
    const bad = await runCli(['ls', 's3://Bad_Bucket/'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/is not a bucket name/);
    const prefix = await runCli(['status', 's3://tf-state/envs/'], env);
    expect(prefix.code).toBe(2);
    expect(prefix.stderr).toMatch(/names a source, not a lock/);
  });
});
