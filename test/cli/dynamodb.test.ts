// The lockboard command on dynamodb:// sources, as real processes against dynalite: init, run with a fencing token,
// --no-wait while held, and a missing table named with exit 3.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../helpers/cli';
import { startDynamo, type TestDynamo } from '../helpers/dynamodb';

let d: TestDynamo;
let env: Record<string, string>;
beforeAll(async () => {
  d = await startDynamo();
  env = { AWS_ENDPOINT_URL_DYNAMODB: d.url, AWS_REGION: 'us-east-1' };
}, 30_000);
afterAll(() => d?.stop());

describe('lockboard on dynamodb:// sources', () => {
  it('names a missing table and the command that creates it, exit 3; init creates the tables once', async () => {
    const missing = await runCli(['ls', 'dynamodb://jobs'], env);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/DynamoDB table "jobs" does not exist.*lockboard dynamodb init/);
    const init = await runCli(['dynamodb', 'init', 'dynamodb://jobs'], env);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/created lockboard-audit, created jobs/);
    expect((await runCli(['dynamodb', 'init', 'dynamodb://jobs'], env)).stdout).toMatch(
      /lockboard-audit exists, jobs exists/,
    );
    expect((await runCli(['ls', 'dynamodb://jobs'], env)).stdout).toMatch(/No locks under dynamodb:\/\/jobs/);
  });

  it('runs a command under a DynamoDB lock with a fencing token; --no-wait fails fast (75) while it is held', async () => {
    // the holder keeps the lock until the test says so (a fixed sleep ran out first on a loaded machine)
    const go = join(mkdtempSync(join(tmpdir(), 'lb-dyn-')), 'go');
    const hold = startCli(
      [
        'run',
        '--source',
        'dynamodb://jobs',
        'nightly',
        '--ttl',
        '6s',
        '--',
        'sh',
        '-c',
        `echo token=$LOCKBOARD_FENCING_TOKEN; while [ ! -e ${go} ]; do sleep 0.1; done`,
      ],
      env,
    );
    let status;
    for (let i = 0; i < 50; i++) {
      status = await runCli(['status', 'dynamodb://jobs', 'nightly', '--json'], env);
      if (status.code === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status!.code).toBe(0);
    expect(JSON.parse(status!.stdout)).toMatchObject({ format: 'lockboard', store: 'dynamodb', health: 'healthy' });
    const busy = await runCli(['run', '--source', 'dynamodb://jobs', 'nightly', '--no-wait', '--', 'true'], env);
    expect(busy.code).toBe(75);
    writeFileSync(go, '');
    const done = await hold.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/token=\d+/);
    expect((await runCli(['status', 'dynamodb://jobs', 'nightly'], env)).code).toBe(10);
  });

  it('refuses bad sources and subcommands with exit 2 and a message naming the fix', async () => {
    const bad = await runCli(['ls', 'dynamodb://x'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"x" is not a DynamoDB table name/);
    const sub = await runCli(['dynamodb', 'drop'], env);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toMatch(/use "lockboard dynamodb init/);
    expect((await runCli(['dynamodb', '--help'], env)).stdout).toMatch(/Usage: lockboard dynamodb init/);
  });
});
