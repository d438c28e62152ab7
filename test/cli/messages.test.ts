// What the CLI says when a user slips: each message names the problem and the fix, and never claims what is not so
// (a bucket named "", "No source given" for a mistyped source, "Waiting…" under --no-wait, "changed hands" for a
// version that was never the lock's).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseCommand } from '@/lib/text/format';
import { runCli, startCli } from '../helpers/cli';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { delay } from '../helpers/requests';

let t: Target;
let env: Record<string, string>;
beforeAll(async () => {
  t = await startTestEmulator();
  env = { LOCKBOARD_GCS_ENDPOINT: t.emulator!.url };
});
afterAll(() => t?.close());

describe('the CLI when a user slips', () => {
  it('names the bucket a source URL asked for when it does not exist (exit 3)', async () => {
    const r = await runCli(['ls', `gs://${t.bucket}-typo/`], env);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`Bucket "${t.bucket}-typo" does not exist`);
    expect(r.stderr).not.toContain('Bucket ""');
  });

  it('reads a source with its colon left out as a mistyped source, not "no source given" (exit 2)', async () => {
    const r = await runCli(['ls', 'zk//127.0.0.1:2191/'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a ZooKeeper source: expected zookeeper:\/\/HOST:PORT\/PATH \(note the "::?\/\/"\)/);
  });

  it('hints at "--" when the command to run was given without it (exit 2)', async () => {
    const r = await runCli(['run', '--source', `gs://${t.bucket}/locks/`, 'job', 'sh', '-c', 'true'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Unknown option '-c'`);
    expect(r.stderr).toContain('Put "--" before the command');
  });

  it('under --no-wait says the lock is held, without "Waiting…" or a timeout (exit 75)', async () => {
    const go = join(mkdtempSync(join(tmpdir(), 'lb-msg-')), 'go');
    const source = `gs://${t.bucket}/locks/`;
    const hold = startCli(
      ['run', '--source', source, 'busy', '--', 'sh', '-c', `while [ ! -e ${go} ]; do sleep 0.1; done`],
      env,
    );
    for (let i = 0; i < 100 && (await runCli(['status', source, 'busy'], env)).code !== 0; i++) await delay(100);
    const r = await runCli(['run', '--source', source, 'busy', '--no-wait', '--', 'true'], env);
    writeFileSync(go, '');
    expect((await hold.done).code).toBe(0);
    expect(r.code).toBe(75);
    expect(r.stderr).toMatch(/Lock "locks\/busy" is held \(--no-wait: not waiting\)/);
    expect(r.stderr).not.toMatch(/Waiting for|Timed out/);
  });

  it('lists 127 and 130 in the exit codes that run can return', async () => {
    const help = await runCli(['run', '--help'], env);
    expect(help.stdout).toMatch(/^ {2}127 run: the command could not be started/m);
    expect(help.stdout).toMatch(/^ {2}130 run: interrupted/m);
    const missing = await runCli(
      ['run', '--source', `gs://${t.bucket}/locks/`, 'nope', '--', '/nonexistent/command'],
      env,
    );
    expect(missing.code).toBe(127);
  });

  it('refuses a name with ".." in an object store before reading or recording anything (exit 2)', async () => {
    const source = `gs://${t.bucket}/`;
    const status = await runCli(['status', source, '../../etc/passwd'], env);
    expect(status.code).toBe(2);
    expect(status.stderr).toMatch(/not a lock name in gs:.*"\.\." segments/);
    const release = await runCli(['release', source, '../x', '--version', '1.1', '--reason', 'probe'], env);
    expect(release.code).toBe(2);
    expect(release.stdout + release.stderr).not.toMatch(/recorded/);
    const [objects] = await t.storage.bucket(t.bucket).getFiles({ prefix: '.lockboard/audit/' });
    expect(objects.filter((o) => o.metadata.metadata?.lock === '../x')).toEqual([]);
  });

  it('prints a release command that runs as printed: --accept-two-leaders where the store asks for it', () => {
    const lock = { name: 'locks/a', version: '7', source: 'zookeeper://h:2181/locks', bucket: 'h:2181' };
    expect(releaseCommand(lock)).not.toContain('--accept-two-leaders');
    const told = { ...lock, terms: { twoLeaders: 'The old holder keeps holding until its session ends.' } };
    expect(releaseCommand(told)).toMatch(/--reason WHY --accept-two-leaders$/);
  });
});
