// The lockboard command as real processes against the emulator.
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, forceReleaseLock, getLock } from '@/lib/lock';
import { lsVerdicts, runCli, startCli } from '../helpers/cli';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { delay } from '../helpers/requests';
import { writeTerraformLock, writeTerraformState } from '../helpers/writers';

let t: Target;
let env: Record<string, string>;
let dir: string;
beforeAll(async () => {
  t = await startTestEmulator();
  env = { LOCKBOARD_BUCKET: t.bucket, LOCKBOARD_GCS_ENDPOINT: t.emulator!.url, LOCKBOARD_PREFIX: 'locks/' };
  dir = mkdtempSync(join(tmpdir(), 'lockboard-cli-'));
});
afterAll(async () => {
  await t.close();
});

/** Polls until the lock exists (the CLI process took it). */
async function waitForLock(name: string) {
  for (;;) {
    const info = await getLock({ storage: t.storage, bucket: t.bucket, name });
    if (info) return info;
    await delay(50);
  }
}

/** A child that appends "token start end" to `file` around a 400 ms critical section. */
const criticalSection = (file: string) => [
  process.execPath,
  '-e',
  `const fs=require('fs');const s=Date.now();setTimeout(()=>{fs.appendFileSync(${JSON.stringify(file)}, process.env.LOCKBOARD_FENCING_TOKEN+' '+s+' '+Date.now()+'\\n')},400)`,
];

describe('lockboard run', () => {
  it('serialises two runs on the same lock and passes increasing fencing tokens', async () => {
    const file = join(dir, 'serial.log');
    const a = runCli(['run', 'serial', '--ttl', '6s', '--', ...criticalSection(file)], env);
    const b = runCli(['run', 'serial', '--ttl', '6s', '--', ...criticalSection(file)], env);
    const [ra, rb] = await Promise.all([a, b]);
    expect([ra.code, rb.code]).toEqual([0, 0]);
    const rows = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' ').map((x) => BigInt(x)));
    expect(rows).toHaveLength(2);
    rows.sort((x, y) => (x[1]! < y[1]! ? -1 : 1));
    expect(rows[1]![1]).toBeGreaterThanOrEqual(rows[0]![2]!);
    expect(rows[1]![0]).toBeGreaterThan(rows[0]![0]!);
    expect(await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/serial' })).toBeNull();
  });

  it('exits with the command’s exit code', async () => {
    const r = await runCli(['run', 'code', '--', process.execPath, '-e', 'process.exit(7)'], env);
    expect(r.code).toBe(7);
  });

  it('keeps the command’s exit code when the release cannot reach storage', async () => {
    t.emulator!.faults.set({ rules: [{ method: 'DELETE', errorRate: 1, errorStatus: 500 }] });
    try {
      const r = await runCli(
        ['run', 'undeletable', '--ttl', '3s', '--', process.execPath, '-e', 'process.exit(3)'],
        env,
      );
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/could not release locks\/undeletable .*becomes stale after its TTL/);
    } finally {
      t.emulator!.faults.clear();
    }
  });

  it('fails fast with --no-wait, naming the holder, with exit code 75', async () => {
    const holder = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/busy',
      identity: 'ci-runner-42',
      purpose: 'publish',
      audit: false,
    });
    const start = Date.now();
    const r = await runCli(['run', 'busy', '--no-wait', '--', 'true'], env);
    expect(r.code).toBe(75);
    expect(r.stderr).toMatch(/held by ci-runner-42 \(publish\)/);
    expect(Date.now() - start).toBeLessThan(5000);
    await holder.release();
  });

  it('prints who holds the lock while waiting, one line per holder when not on a terminal', async () => {
    const holder = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/wait',
      identity: 'holder-x',
      audit: false,
    });
    const waiting = startCli(['run', 'wait', '--', 'true'], env);
    // release only once the waiting line is out, however long the CLI took to start
    await new Promise<void>((resolve) =>
      waiting.child.stderr!.on('data', (d: Buffer) => d.toString().includes('Waiting for') && resolve()),
    );
    await delay(600);
    await holder.release();
    const r = await waiting.done;
    expect(r.code).toBe(0);
    expect(r.stderr.match(/Waiting for locks\/wait: held by holder-x/g)).toHaveLength(1);
  });

  it('leaves a lock behind when killed with SIGKILL, which another run takes over once stale', async () => {
    const pidFile = join(dir, 'orphan.pid');
    const first = startCli(
      [
        'run',
        'crash',
        '--ttl',
        '3s',
        '--',
        process.execPath,
        '-e',
        `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(()=>{}, 20000)`,
      ],
      env,
    );
    while (!existsSync(pidFile)) await delay(50);
    first.child.kill('SIGKILL');
    // the orphaned command keeps run's output pipes open until it ends
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    const start = Date.now();
    expect((await first.done).signal).toBe('SIGKILL');
    const second = await runCli(['run', 'crash', '--ttl', '3s', '--', 'true'], env);
    expect(second.code).toBe(0);
    expect(Date.now() - start).toBeGreaterThan(1500);
    expect(second.stderr).toMatch(/Waiting for locks\/crash/);
  });

  it('stops the command with SIGTERM and exits 76 when the lock is force-released through the CLI', async () => {
    const marker = join(dir, 'term.txt');
    const running = startCli(
      [
        'run',
        'forced',
        '--ttl',
        '4s',
        '--',
        process.execPath,
        '-e',
        `process.on('SIGTERM',()=>{require('fs').writeFileSync(${JSON.stringify(marker)},'SIGTERM');process.exit(143)}); setInterval(()=>{},1000)`,
      ],
      env,
    );
    await waitForLock('locks/forced');
    const status = await runCli(['status', 'forced', '--json'], env);
    expect(status.code).toBe(0);
    const seen = JSON.parse(status.stdout) as { generation: string };
    // The holder refreshes every 500 ms: a refresh between the read and the DELETE is refused as `refreshed` (11,
    // the holder is alive), and an operator runs the command again
    let rel = await runCli(
      ['release', 'forced', '--generation', seen.generation, '--reason', 'test', '--operator', 'ops@example.com'],
      env,
    );
    for (let i = 0; rel.code === 11 && /refreshed since you looked/.test(rel.stdout) && i < 5; i++) {
      rel = await runCli(
        ['release', 'forced', '--generation', seen.generation, '--reason', 'test', '--operator', 'ops@example.com'],
        env,
      );
    }
    expect(rel.code, rel.stdout + rel.stderr).toBe(0);
    expect(rel.stdout).toMatch(/Released gs:\/\/test-bucket\/locks\/forced/);
    expect(rel.stdout).toMatch(/Audit: attempt recorded \(\.lockboard\/audit\/.*\), outcome recorded/);
    const r = await running.done;
    expect(r.code).toBe(76);
    expect(readFileSync(marker, 'utf8')).toBe('SIGTERM');
    expect(r.stderr).toMatch(/released-by-operator/);
  });

  it('refuses a release it cannot record in the audit trail (exit 3), deleting nothing', async () => {
    const lock = await acquireLock({ storage: t.storage, bucket: t.bucket, name: 'locks/unaudited', audit: false });
    t.emulator!.faults.set({ rules: [{ method: 'POST', errorRate: 1, errorStatus: 503 }] });
    try {
      const rel = await runCli(['release', 'unaudited', '--generation', lock.generation, '--reason', 'x'], env);
      expect(rel.code).toBe(3);
      expect(rel.stderr).toMatch(/could not be recorded under the audit prefix .* Nothing was deleted/);
    } finally {
      t.emulator!.faults.clear();
    }
    expect(await lock.release()).toEqual({ outcome: 'released' });
  });

  it('stops the command when the lock is force-released through the lock core', async () => {
    const running = startCli(
      [
        'run',
        'forced2',
        '--ttl',
        '4s',
        '--kill-after',
        '1s',
        '--',
        process.execPath,
        '-e',
        `process.on('SIGTERM',()=>{}); setInterval(()=>{},1000)`,
      ],
      env,
    );
    const info = await waitForLock('locks/forced2');
    await forceReleaseLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/forced2',
      generation: info.generation,
      audit: false,
    });
    const r = await running.done;
    // the child ignores SIGTERM, so --kill-after sends SIGKILL
    expect(r.code).toBe(76);
  });
});

describe('lockboard ls, status and release', () => {
  it('lists locks as a table and as JSON', async () => {
    const lock = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/listed',
      purpose: 'nightly dbt',
      audit: false,
    });
    const table = await runCli(['ls'], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^NAME\s+HEALTH\s+OWNER\s+HELD FOR\s+EXPIRES IN\s+VERSION/);
    expect(table.stdout).toMatch(new RegExp(`locks/listed\\s+healthy\\s+.*\\(nightly dbt\\).*${lock.generation}`));
    const json = JSON.parse((await runCli(['ls', '--json'], env)).stdout) as {
      serverTime: string;
      locks: { name: string }[];
    };
    expect(json.locks.map((l) => l.name)).toContain('locks/listed');
    expect(Date.parse(json.serverTime)).toBeGreaterThan(0);
    await lock.release();
  });

  it('marks locks held longer than --long-held (or LOCKBOARD_LONG_HELD) as long-held, like the console', async () => {
    const lock = await acquireLock({ storage: t.storage, bucket: t.bucket, name: 'locks/marathon', audit: false });
    // A fresh process knows server time only from Date headers (whole seconds, floored): wait past one second
    await delay(1200);
    expect((await runCli(['ls'], env)).stdout).toMatch(/locks\/marathon\s+healthy/);
    expect((await runCli(['ls', '--long-held', '100ms'], env)).stdout).toMatch(/locks\/marathon\s+long-held/);
    const status = await runCli(['status', 'marathon', '--json'], { ...env, LOCKBOARD_LONG_HELD: '100ms' });
    expect(status.code).toBe(0);
    expect((JSON.parse(status.stdout) as { health: string }).health).toBe('long-held');
    const bad = await runCli(['ls'], { ...env, LOCKBOARD_LONG_HELD: 'forever' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/LOCKBOARD_LONG_HELD must be a duration like 30m or 2h, got "forever"/);
    await lock.release();
  });

  it('says so when no locks exist under a prefix', async () => {
    const r = await runCli(['ls', 'nothing-here/'], env);
    expect(r.stdout).toMatch(/No locks under gs:\/\/test-bucket\/nothing-here\//);
  });

  it('reads a Terraform state bucket given as gs://bucket/prefix: the .tflock in its own terms, never the .tfstate', async () => {
    const state = await writeTerraformState(t.storage, t.bucket, 'tf/prod/default.tfstate');
    const tflock = await writeTerraformLock(t.storage, t.bucket, 'tf/prod/default.tfstate', 'ann@laptop');
    const ls = await runCli(['ls', `gs://${t.bucket}/tf/`, '--json'], { ...env, LOCKBOARD_BUCKET: 'elsewhere' });
    expect(ls.code).toBe(0);
    const listed = JSON.parse(ls.stdout) as { bucket: string; locks: Record<string, string>[]; skipped: number };
    expect(listed.bucket).toBe(t.bucket);
    expect(listed.skipped).toBe(1);
    expect(listed.locks.map((l) => [l.name, l.format, l.identity, l.health, l.generation])).toEqual([
      ['tf/prod/default.tflock', 'terraform', 'ann@laptop', 'unknown', tflock.generation],
    ]);
    const status = await runCli(['status', 'default.tflock', '--prefix', 'tf/prod/'], env);
    // the identity once: Terraform's Who is the identity line, not printed twice (#52)
    expect(status.stdout).toMatch(/identity\s+ann@laptop/);
    expect(status.stdout).not.toMatch(/^who\s/m);
    expect(status.stdout).toMatch(/operation\s+OperationTypeApply/);
    expect(status.stdout).toContain(`terraform force-unlock ${tflock.generation}`);
    const refused = await runCli(
      ['release', 'default.tfstate', '--prefix', 'tf/prod/', '--generation', state.generation, '--reason', 'x'],
      env,
    );
    expect(refused.code).toBe(13);
    expect(refused.stdout).toMatch(/not a lock.*Nothing was deleted.*Terraform state/);
    expect((await t.storage.bucket(t.bucket).file('tf/prod/default.tfstate').exists())[0]).toBe(true);
  });

  it('prints in the table the verdict ls --json gives, on a cold gs:// listing whose bodies are read after the page', async () => {
    await writeTerraformLock(t.storage, t.bucket, 'cold/prod/default.tfstate', 'cy@laptop');
    // each command is a new process: its store has read no body yet, so the table's listing reads them later
    const ls = await lsVerdicts([`gs://${t.bucket}/cold/`], env);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.locks).toEqual([{ json: 'unknown', table: 'unknown' }]);
  });

  it('takes whole object URLs: status and release gs://bucket/object, and gs://bucket/prefix NAME', async () => {
    const tflock = await writeTerraformLock(t.storage, t.bucket, 'url/prod/default.tfstate', 'bo@laptop');
    const url = `gs://${t.bucket}/url/prod/default.tflock`;
    // no bucket or prefix configured at all: the URL says everything
    const bare = { LOCKBOARD_GCS_ENDPOINT: t.emulator!.url };
    const status = await runCli(['status', url, '--json'], bare);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ name: 'url/prod/default.tflock', identity: 'bo@laptop' });
    const pair = await runCli(['status', `gs://${t.bucket}/url/prod/`, 'default.tflock', '--json'], bare);
    expect(JSON.parse(pair.stdout)).toMatchObject({ generation: tflock.generation });
    const clash = await runCli(['status', url, '--bucket', 'other-bucket'], bare);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toMatch(/--bucket other-bucket contradicts gs:\/\//);
    const bucketOnly = await runCli(['status', `gs://${t.bucket}/`], bare);
    expect(bucketOnly.code).toBe(2);
    expect(bucketOnly.stderr).toMatch(/names a source, not a lock/);
    const release = await runCli(['release', url, '--generation', tflock.generation, '--reason', 'apply killed'], bare);
    expect(release.code, release.stdout + release.stderr).toBe(0);
    expect((await t.storage.bucket(t.bucket).file('url/prod/default.tflock').exists())[0]).toBe(false);
  });

  it('status exits 10 for a free lock', async () => {
    const r = await runCli(['status', 'never-taken'], env);
    expect(r.code).toBe(10);
    expect(r.stdout).toMatch(/free/);
  });

  it('release refuses a stale generation (exit 11) and reports gone (exit 12)', async () => {
    const lock = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/rel',
      identity: 'successor',
      audit: false,
    });
    const changed = await runCli(['release', 'rel', '--generation', '1', '--reason', 'x'], env);
    expect(changed.code).toBe(11);
    expect(changed.stdout).toMatch(/changed hands.*successor/);
    await lock.release();
    const gone = await runCli(['release', 'rel', '--generation', lock.generation, '--reason', 'x'], env);
    expect(gone.code).toBe(12);
  });
});

describe('bad input', () => {
  const cases: [string, string[], RegExp][] = [
    [
      'an unknown flag',
      ['run', 'x', '--frobnicate', '--', 'true'],
      /Unknown option '--frobnicate'.*lockboard run --help/,
    ],
    ['a bad duration', ['run', 'x', '--timeout', 'soon', '--', 'true'], /--timeout must be a duration like 30s/],
    ['no command', ['run', 'x'], /Missing the command to run/],
    ['a release without reason', ['release', 'x', '--generation', '5'], /--reason is required/],
    [
      'a non-numeric generation',
      ['release', 'x', '--generation', 'abc', '--reason', 'r'],
      /is not a version of gs:\/\/.*: a GCS version is GENERATION.METAGENERATION/,
    ],
    ['an unknown command', ['frob'], /unknown command "frob"/],
    [
      'a TTL past what a timer can hold',
      ['run', 'x', '--ttl', '200d', '--', 'true'],
      /ttlMs` to be at most 2147483647/,
    ],
    ['an absurd TTL', ['run', 'x', '--ttl', '99999999999999999999d', '--', 'true'], /--ttl must be a duration/],
  ];
  for (const [what, args, message] of cases) {
    it(`rejects ${what} with exit code 2 and a clear message`, async () => {
      const r = await runCli(args, env);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }

  it('asks for a bucket when none is configured', async () => {
    const r = await runCli(['ls'], { LOCKBOARD_BUCKET: '', LOCKBOARD_GCS_ENDPOINT: t.emulator!.url });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--bucket NAME \/ LOCKBOARD_BUCKET/);
  });

  it('reports an unreachable endpoint with exit code 3', async () => {
    const r = await runCli(['ls'], { ...env, LOCKBOARD_GCS_ENDPOINT: 'http://127.0.0.1:9' });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/Cannot reach the storage endpoint/);
  });

  it('names the missing bucket and exits 3, for every command, never "free" or "gone"', async () => {
    const missing = { ...env, LOCKBOARD_BUCKET: 'no-such-bucket' };
    for (const args of [
      ['run', 'deploy', '--', 'true'],
      ['ls', '--json'],
      ['status', 'deploy'],
      ['release', 'deploy', '--generation', '1', '--reason', 'x'],
    ]) {
      const r = await runCli(args, missing);
      expect(r.code, args.join(' ')).toBe(3);
      expect(r.stderr, args.join(' ')).toMatch(/Bucket "no-such-bucket" does not exist/);
    }
  });

  it('says the endpoint cannot be reached while retrying, and exits 3 at --timeout', async () => {
    const r = await runCli(['run', 'x', '--timeout', '2s', '--', 'true'], {
      ...env,
      LOCKBOARD_GCS_ENDPOINT: 'http://127.0.0.1:9',
    });
    expect(r.stderr).toMatch(/Storage request failed for locks\/x: .*Retrying/);
    expect(r.stderr).toMatch(/Cannot reach the storage endpoint/);
    expect(r.code).toBe(3);
  });

  it('waits out a --timeout longer than a Node.js timer can hold', async () => {
    const holder = await acquireLock({ storage: t.storage, bucket: t.bucket, name: 'locks/month', audit: false });
    const { child, done } = startCli(['run', 'month', '--timeout', '30d', '--', 'true'], env);
    const early = await Promise.race([done, delay(1500).then(() => 'still waiting')]);
    expect(early).toBe('still waiting');
    child.kill('SIGINT');
    expect((await done).code).toBe(130);
    await holder.release();
  });

  it('prints help for every command', async () => {
    for (const cmd of ['run', 'ls', 'status', 'release', 'emulator']) {
      const r = await runCli([cmd, '--help'], env);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`Usage: lockboard ${cmd}`));
    }
  });
});
