// Gone is proof, never a guess (#56, stores.md "The reach of evidence"): each topology of facts-sound.md where a
// careless reader called a LIVE holder gone, reproduced with real processes. Each holder must not be judged gone, must
// survive `lockboard release --if-gone`, and Lockboard's own lock must not be taken over by a second `lockboard run`
// while its first holder lives. Controls keep a sound gone: a SIGKILLed holder in this namespace is still gone and
// cleared, a killed own-lock holder is still taken over at once.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntry } from '@/lib/lock/stores/files/entry';
import { readEntryAsLock } from '@/lib/lock/stores/files/formats-special';
import { mountKey } from '@/lib/lock/stores/files/mounts';
import { scanHolders } from '@/lib/lock/stores/files/proc';
import type { Context } from '@/lib/lock/stores/files/reading';
import { runCli, startCli } from '../helpers/cli';
import { asNobodyBehindHidepid, background, ext2Mount, freePid, inContainer, inPidNamespace } from './sound-tools';
import { lockboard, needRecipes, undoAll, type Shell } from './sound-tools';
import { killAndWait, MACHINE_LOCK, PYTHON, startHolder, stopAll, tempDir, until } from './tools';

const why = async (dir: string, name: string) => {
  const r = await runCli(['why', `file://${dir}`, name, '--json'], {});
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { verdict: string; sentence: string };
};
const releaseIfGone = (dir: string, name: string) =>
  runCli(['release', `file://${dir}`, name, '--if-gone', '--reason', 'test'], {});
const secondRun = (dir: string, timeout: string) =>
  runCli(['run', '--source', `file://${dir}`, 'deploy', '--timeout', timeout, '--', 'true'], {});
/** A first holder for 5 min; its command writes its pid to `<dir>.child` (a killed run leaves it behind). */
const runIn = (dir: string) => [
  ...['run', '--source', `file://${dir}`, 'deploy', '--ttl', '5m', '--quiet', '--'],
  ...['sh', '-c', `echo $$ > ${dir}.child; exec sleep 300`],
];
/** Kills a `lockboard run` (once its command runs) and the command it leaves behind. */
async function killRun(first: ReturnType<typeof startCli>, dir: string): Promise<void> {
  const child = () => (fs.existsSync(`${dir}.child`) && Number(fs.readFileSync(`${dir}.child`, 'utf8'))) || 0;
  const pid = await until(child, 'its command');
  first.child.kill('SIGKILL');
  process.kill(pid, 'SIGKILL'); // it holds the run's stdout: the run is closed once both are gone
  await first.done;
}

/** The one generation of `<dir>/deploy.lockd`, once its holder wrote it. */
async function generation(dir: string): Promise<{ file: string; body: { pid: number; pidNs?: number } }> {
  const L = path.join(dir, 'deploy.lockd');
  const first = () => (fs.existsSync(L) ? fs.readdirSync(L).find((n) => n.endsWith('.json')) : undefined);
  const name = await until(first, 'a holder');
  const file = path.join(L, name);
  return { file, body: JSON.parse(fs.readFileSync(file, 'utf8')) as { pid: number; pidNs?: number } };
}

/** What every live holder must get: not gone, --if-gone refused (11) with its file untouched. */
async function survives(dir: string, name: string, file = path.join(dir, name)): Promise<string> {
  const v = await why(dir, name);
  expect(v.verdict, v.sentence).not.toBe('gone');
  const r = await releaseIfGone(dir, name);
  expect(r.code, r.stdout + r.stderr).toBe(11);
  expect(fs.existsSync(file)).toBe(true);
  return v.sentence;
}

/** `survives` for a reader whose commands `reader` runs (as nobody behind hidepid, in a container): unknown. */
function survivesAs(reader: (command: string) => Shell, dir: string, name: string): string {
  const said = reader(lockboard(['why', `file://${dir}`, name, '--json']));
  expect(said.code, said.stderr).toBe(0);
  const v = JSON.parse(said.stdout) as { verdict: string; sentence: string };
  expect(v.verdict, v.sentence).toBe('unknown');
  const release = reader(lockboard(['release', `file://${dir}`, name, '--if-gone', '--reason', 'test']));
  expect(release.code, release.stdout + release.stderr).toBe(11);
  expect(fs.existsSync(path.join(dir, name))).toBe(true);
  return v.sentence;
}

describe('a live holder the reader cannot fully see is never judged gone', () => {
  let base: string;
  beforeAll(() => {
    needRecipes();
    base = tempDir();
    fs.chmodSync(base, 0o755);
  });
  afterAll(async () => {
    await undoAll();
    await stopAll();
    fs.rmSync(base, { recursive: true, force: true });
  });
  const dirOf = (name: string) => {
    const d = path.join(base, name);
    fs.mkdirSync(d, { mode: 0o777 });
    fs.chmodSync(d, 0o777);
    return d;
  };

  it("Lockboard's own lock held in another pid namespace: not gone, and a second run waits for it", async () => {
    const dir = dirOf('own-ns');
    const p = freePid();
    const ns = inPidNamespace(p, lockboard(runIn(dir)));
    const { file, body } = await generation(dir);
    expect(body.pid).toBe(p + 1); // the holder's pid there, missing here: a pid check here says nothing
    expect(fs.existsSync(`/proc/${body.pid}`)).toBe(false);
    expect(body.pidNs).not.toBe(fs.statSync('/proc/self/ns/pid').ino);
    expect(await survives(dir, 'deploy.lockd', file)).toMatch(/another pid namespace/);
    const second = await secondRun(dir, '3s');
    expect(second.code, second.stderr).toBe(75);
    expect(fs.existsSync(file)).toBe(true);
    expect(ns.exitCode).toBeNull();
  }, 60_000);

  it("Lockboard's own lock on ext2 without birth times: its live holder is kept; a killed one is taken over at once", async () => {
    const dir = ext2Mount(base);
    const first = startCli(runIn(dir), {});
    const { file } = await generation(dir);
    expect(fs.statSync(file).birthtimeMs).toBe(0); // the filesystem keeps no birth time
    await survives(dir, 'deploy.lockd', file);
    const second = await secondRun(dir, '3s');
    expect(second.code, second.stderr).toBe(75);
    await killRun(first, dir);
    const t0 = Date.now();
    const next = await secondRun(dir, '10s');
    expect(next.code, next.stderr).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5_000); // its pid's absence is proof here: no wait for the TTL (5 min)
  }, 60_000);

  it('a pid file, a dotlock and a SoftFileLock written in another pid namespace: unknown, naming it', async () => {
    const dir = dirOf('files-ns');
    const p = freePid();
    const write = `echo $$ > ${dir}/svc.pid; echo $$ > ${dir}/dot.lock; printf "%s\\n%s\\n" $$ $(hostname) > ${dir}/soft.lock`;
    inPidNamespace(p, `sh -c '${write}; exec sleep 300'`);
    await until(() => fs.existsSync(`${dir}/soft.lock`) && fs.statSync(`${dir}/soft.lock`).size > 0, 'the holder');
    expect(fs.readFileSync(`${dir}/svc.pid`, 'utf8').trim()).toBe(String(p + 1));
    for (const name of ['svc.pid', 'dot.lock', 'soft.lock']) {
      const said = await survives(dir, name);
      expect(said).toMatch(new RegExp(`pid ${p + 1} exists in another pid namespace as host pid \\d+ \\(sleep\\)`));
    }
  }, 60_000);

  it('an O_EXCL holder hidden by a /proc mounted hidepid=2: unknown to its reader, and kept', async () => {
    const dir = dirOf('hidepid');
    await startHolder(PYTHON, ['-c', MACHINE_LOCK, 'job', dir]);
    expect(survivesAs(asNobodyBehindHidepid, dir, 'job.lock')).toMatch(/hidepid=(2|invisible)/);
  }, 60_000);

  it("a host's pid file read from a container (another pid namespace): unknown, naming the blind spot", async () => {
    const dir = dirOf('container');
    const holder = background('sleep', ['300']);
    fs.writeFileSync(`${dir}/svc.pid`, `${holder.pid}\n`);
    const said = survivesAs(inContainer, dir, 'svc.pid');
    expect(said).toMatch(/other pid namespaces on this host are not visible from here/);
  }, 60_000);

  it("a live pid whose file's mtime is 5 s behind (another clock, cp -p): not reused, and kept", async () => {
    const dir = dirOf('clock');
    const holder = background('sleep', ['300']);
    fs.writeFileSync(`${dir}/svc.pid`, `${holder.pid}\n`);
    spawnSync('touch', ['-d', `@${Math.floor(Date.now() / 1000) - 5}`, `${dir}/svc.pid`]);
    const said = await survives(dir, 'svc.pid');
    expect(said).not.toMatch(/reused\./);
    expect(said).toMatch(/started \d+ s after the file was last written/);
  }, 60_000);

  it('controls: a SIGKILLed pid-file holder here is gone and cleared; a killed own-lock holder is taken over at once', async () => {
    const dir = dirOf('controls');
    const holder = background('sleep', ['300']);
    fs.writeFileSync(`${dir}/svc.pid`, `${holder.pid}\n`);
    expect((await why(dir, 'svc.pid')).verdict).toBe('alive');
    await killAndWait(holder);
    const v = await why(dir, 'svc.pid');
    expect([v.verdict, v.sentence]).toEqual(['gone', `Holder gone: pid ${holder.pid} is not running.`]);
    expect((await releaseIfGone(dir, 'svc.pid')).code).toBe(0);
    expect(fs.existsSync(`${dir}/svc.pid`)).toBe(false);
    const first = startCli(runIn(dir), {});
    await generation(dir);
    await killRun(first, dir);
    expect((await why(dir, 'deploy.lockd')).verdict).toBe('gone');
    const t0 = Date.now();
    const next = await secondRun(dir, '10s');
    expect(next.code, next.stderr).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5_000);
  }, 60_000);

  it('an own-lock body written before #56 (no pid namespace, boot, start): its dead pid never takes it over early', async () => {
    const dir = dirOf('old-body');
    const L = path.join(dir, 'deploy.lockd');
    fs.mkdirSync(L);
    const p = freePid();
    const gen = `${os.hostname()}-${p}-1-0123456789ab`;
    const old = { v: 1, tool: 'lockboard', job: 'deploy', owner: 'old', host: os.hostname(), pid: p, ttlMs: 300_000 };
    const created = new Date().toISOString();
    fs.writeFileSync(path.join(L, `${gen}.json`), JSON.stringify({ ...old, gen, token: '1', created }));
    const v = await why(dir, 'deploy.lockd');
    expect(v.verdict).not.toBe('gone');
    expect(v.sentence).toMatch(/did not record its holder’s pid namespace and boot; its TTL decides/);
    expect((await secondRun(dir, '1s')).code).toBe(75);
  });
});

describe('a lock file on a network filesystem (its mount named nfs4, as mountinfo says of one)', () => {
  let dir: string;
  afterAll(async () => {
    await undoAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A listing pass's context in which `dir`'s device is an nfs4 mount: shared with other hosts, another clock. */
  function onNfs(): Context {
    const scan = scanHolders();
    const nfs = { fstype: 'nfs4', options: 'rw,vers=4.2', point: dir };
    const byDev = new Map(scan.mounts.byDev).set(mountKey(fs.statSync(dir, { bigint: true }).dev), nfs);
    return {
      scan: { ...scan, mounts: { byDev, all: [...scan.mounts.all, nfs] } },
      host: os.hostname(),
      nowMs: Date.now(),
    };
  }
  const read = (c: Context, name: string) => readEntryAsLock(readEntry(dir, name)!, c)!;

  it('a dead pid naming no host, an O_EXCL file with no holder, a start an hour after the mtime: unknown', () => {
    dir = tempDir();
    const dead = freePid();
    fs.writeFileSync(`${dir}/dot.lock`, `${dead}\n`);
    fs.writeFileSync(`${dir}/excl.lock`, '');
    const live = background('sleep', ['300']);
    fs.writeFileSync(`${dir}/svc.pid`, `${live.pid}\n`);
    const hourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(`${dir}/svc.pid`, hourAgo, hourAgo);
    fs.writeFileSync(`${dir}/soft.lock`, `${dead}\n${os.hostname()}\n`);
    const c = onNfs();
    expect(read(c, 'dot.lock')).toMatchObject({
      status: 'unknown',
      why: expect.stringMatching(/nfs4, which other hosts may share, and it names no host/),
    });
    expect(read(c, 'excl.lock')).toMatchObject({
      status: 'unknown',
      why: expect.stringMatching(/nfs4, which other hosts may share/),
    });
    expect(read(c, 'svc.pid')).toMatchObject({
      status: 'unknown',
      why: expect.stringMatching(/nfs4 the file's time is stamped by another clock/),
    });
    // control: a file naming this host, its pid gone from every namespace here, is gone even there
    expect(read(c, 'soft.lock')).toMatchObject({ status: 'stale', basis: 'absence' });
    // and the same files on this local filesystem: gone, gone, reused
    const local = { scan: scanHolders(), host: os.hostname(), nowMs: Date.now() };
    expect(['dot.lock', 'excl.lock', 'svc.pid'].map((n) => [read(local, n).status, read(local, n).basis])).toEqual([
      ['stale', 'absence'],
      ['stale', 'absence'],
      ['stale', 'absence'],
    ]);
  });
});
