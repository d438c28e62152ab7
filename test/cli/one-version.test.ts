// One version everywhere: the command the console offers to copy (lib/text/format releaseCommand) releases exactly the
// lock seen when run, against a real redis-server; a format with no acquire time is never given "now" as its acquire
// time by the CLI (HELD FOR "not recorded", --json createdAt null with seenAt).
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordsAcquireTime, releaseArgs, releaseCommand, shellQuote } from '@/lib/text/format';
import { openSource, parseSource } from '@/lib/lock/stores';
import { startCli } from '../helpers/cli';
import { startRedis, type TestRedis } from '../helpers/redis';

let r: TestRedis;
let source: string;
beforeAll(async () => {
  r = await startRedis();
  source = `redis://127.0.0.1:${r.port}/0`;
  await r.client.sendCommand(['SET', 'locks:nightly', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'PX', '600000']);
});
afterAll(() => r?.stop());

const run = (args: string[]) => startCli(args, {}).done;

describe('the version the console shows is the one the CLI takes', () => {
  it('runs the copied release command as is: released (exit 0), the key gone', async () => {
    const env = { ...process.env };
    const store = await openSource(parseSource(source, env), { env, role: 'console' });
    const view = (await store.inspect('locks:nightly'))!;
    await store.close();
    const command = releaseCommand(view);
    expect(command).toBe(`lockboard release ${source} locks:nightly --version ${view.version} --reason WHY`);
    const done = await run(releaseArgs(view, 'copied from the console'));
    expect(done.code, done.stderr).toBe(0);
    expect(await r.client.sendCommand(['EXISTS', 'locks:nightly'])).toBe(0);
  });

  it('quotes every character a shell would change, and the shell gives the string back byte for byte', () => {
    const odd = `public.jobs/a|b 'c' $HOME "d" \`e\` ✓`;
    const echoed = spawnSync('sh', ['-c', `printf '%s' ${shellQuote(odd)}`], { encoding: 'utf8' });
    expect(echoed.stdout).toBe(odd);
  });
});

describe('a format with no acquire time in the CLI', () => {
  it('says HELD FOR "not recorded" and never sets --json createdAt to now', async () => {
    await r.client.sendCommand(['SET', 'locks:plain', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'PX', '600000']);
    const table = await run(['ls', source]);
    expect(table.stdout).toMatch(/locks:plain\s+\S+\s+.*not recorded/);
    expect(table.stdout).toMatch(/HELD FOR "not recorded": the format stores no acquire time/);
    const json = await run(['ls', source, '--json']);
    const lock = (JSON.parse(json.stdout) as { locks: Record<string, unknown>[] }).locks[0]!;
    expect(recordsAcquireTime(lock as { terms: { since: string } })).toBe(false);
    expect(lock.createdAt).toBeNull();
    expect(lock.heldMs).toBeNull();
    expect(Date.parse(lock.seenAt as string)).toBeGreaterThan(Date.now() - 60_000);
    const status = await run(['status', source, 'locks:plain', '--json']);
    expect((JSON.parse(status.stdout) as Record<string, unknown>).createdAt).toBeNull();
  });
});
