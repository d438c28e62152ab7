// Lock files written by the real tools, their holders named from /proc, and a release refused while a live process
// holds the file, allowed (exactly the file seen) once it is dead: the seed's MachineLock, python3-filelock, flock(1),
// lockfile-progs, a zombie's pid file.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAndWait, MACHINE_LOCK, need, PYTHON, startHolder, stopAll, storeOf, tempDir, until } from './tools';

const release = (store: ReturnType<typeof storeOf>, name: string, version: string) =>
  store.forceRelease({ name, version, reason: 'test', operator: 'ci' });

describe('lock files held by real tools', () => {
  let dir: string;
  beforeAll(() => {
    need(PYTHON, 'apt-get install python3');
    need('flock', 'apt-get install util-linux');
    need('lockfile-create', 'apt-get install lockfile-progs');
    dir = tempDir();
  });
  afterAll(async () => {
    await stopAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("the seed's MachineLock: a live holder is named and a release refused; after kill -9 it is stale and released", async () => {
    const store = storeOf(dir);
    const holder = await startHolder(PYTHON, ['-c', MACHINE_LOCK, 'job', dir]);
    const live = (await store.inspect('job.lock'))!;
    expect(live.format).toBe('excl-file');
    expect(live.health).toBe('healthy');
    expect(live.identity).toMatch(new RegExp(`^pid ${holder.pid} \\(python3, user \\w+, started `));
    const refused = await release(store, 'job.lock', live.version);
    expect(refused.outcome).toBe('refreshed');
    expect(refused.detail).toMatch(new RegExp(`pid ${holder.pid} .*two holders.*Stop pid ${holder.pid}`));
    expect(fs.existsSync(path.join(dir, 'job.lock'))).toBe(true);
    await killAndWait(holder);
    const stale = (await store.inspect('job.lock'))!;
    expect(stale.health).toBe('expired');
    expect(stale.version).toBe(live.version); // the same file: only its holder died
    const done = await release(store, 'job.lock', stale.version);
    expect(done.outcome).toBe('released');
    expect(fs.existsSync(path.join(dir, 'job.lock'))).toBe(false);
    const events = await store.readAudit(new Date(Date.now() - 60_000), new Date(Date.now() + 1_000), 'job.lock');
    expect(events.map((e) => e.event)).toEqual([
      'force-release-requested',
      'force-release-refused',
      'force-release-requested',
      'force-released',
    ]);
  });

  it('python3-filelock: FileLock is a flock named by its holder; SoftFileLock an O_EXCL file kept open', async () => {
    const script = `import filelock, os, sys, time
a = filelock.FileLock(sys.argv[1] + "/data.txt.lock"); a.acquire()
b = filelock.SoftFileLock(sys.argv[1] + "/soft.txt.lock"); b.acquire()
print(os.getpid(), flush=True); time.sleep(120)`;
    const holder = await startHolder(PYTHON, ['-c', script, dir]);
    const store = storeOf(dir);
    const flocked = (await store.inspect('data.txt.lock'))!;
    expect([flocked.format, flocked.health, flocked.pid]).toEqual(['kernel-lock', 'healthy', String(holder.pid)]);
    expect(flocked.releaseNote).toMatch(/Refused while held.*flock|two holders/);
    const soft = (await store.inspect('soft.txt.lock'))!;
    expect([soft.format, soft.health, soft.pid]).toEqual(['excl-file', 'healthy', String(holder.pid)]);
    await killAndWait(holder, 'SIGTERM');
    expect((await store.inspect('data.txt.lock'))!.health).toBe('expired'); // no holder: removing it is safe
    expect((await store.inspect('soft.txt.lock'))!.health).toBe('expired');
  });

  it('flock(1): the kernel names the killed flock process; the command that inherited the lock is the holder', async () => {
    const holder = await startHolder('sh', ['-c', `echo ready; exec flock ${dir}/util.lock sleep 120`]);
    const store = storeOf(dir);
    const first = await until(async () => (await store.inspect('util.lock'))?.pid, 'the flock');
    expect(first).toBe(String(holder.pid));
    // flock forks, then the child execs sleep: wait until it has
    const sleeper = await until(() => {
      const pid = spawnSync('pgrep', ['-P', String(holder.pid)])
        .stdout.toString()
        .trim();
      return pid && fs.readFileSync(`/proc/${pid}/comm`, 'utf8') === 'sleep\n' ? pid : '';
    }, 'flock to run sleep');
    await killAndWait(holder);
    expect(fs.readFileSync('/proc/locks', 'utf8')).toMatch(new RegExp(`FLOCK .* ${holder.pid} `));
    const now = (await store.inspect('util.lock'))!;
    expect(now.health).toBe('healthy');
    expect(now.identity).toMatch(new RegExp(`^pid ${sleeper} \\(sleep`));
    expect((await release(store, 'util.lock', now.version)).outcome).toBe('refreshed');
  });

  it('lockfile-progs: a pid that exited is stale; without a pid the 5-minute rule applies', async () => {
    execFileSync('sh', ['-c', `lockfile-create --use-pid --lock-name --retry 0 ${dir}/mail.lock`]);
    execFileSync('lockfile-create', ['--lock-name', '--retry', '0', `${dir}/spool.lock`]);
    const store = storeOf(dir);
    const mail = (await store.inspect('mail.lock'))!;
    expect([mail.format, mail.health]).toEqual(['dotlock', 'expired']);
    expect(mail.note).toMatch(/is not running|zombie/);
    const spool = (await store.inspect('spool.lock'))!;
    expect([spool.format, spool.health]).toEqual(['dotlock', 'healthy']);
    fs.utimesSync(`${dir}/spool.lock`, new Date(Date.now() - 301_000), new Date(Date.now() - 301_000));
    expect((await store.inspect('spool.lock'))!.health).toBe('expired');
  });

  it('a pid file naming a zombie is stale (kill(pid, 0) would still say alive)', async () => {
    const script = `import os, sys, time
p = os.fork()
if p == 0: os._exit(0)
open(sys.argv[1] + "/worker.pid", "w").write("%d\\n" % p); time.sleep(0.2); print(p, flush=True); time.sleep(120)`;
    const parent = await startHolder(PYTHON, ['-c', script, dir]);
    const store = storeOf(dir);
    const v = (await store.inspect('worker.pid'))!;
    expect([v.format, v.health]).toEqual(['pidfile', 'expired']);
    expect(v.note).toMatch(/zombie/);
    await killAndWait(parent);
  });

  it('a pid file older than the process with its pid names a reused pid: stale, not alive', async () => {
    const other = await startHolder('sh', ['-c', 'echo up; exec sleep 120']);
    fs.writeFileSync(`${dir}/old.pid`, `${other.pid}\n`);
    const hourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(`${dir}/old.pid`, hourAgo, hourAgo); // written an hour before that process started
    const v = (await storeOf(dir).inspect('old.pid'))!;
    expect([v.format, v.health]).toEqual(['pidfile', 'expired']);
    expect(v.note).toMatch(/reused/);
    fs.utimesSync(`${dir}/old.pid`, new Date(), new Date());
    expect((await storeOf(dir).inspect('old.pid'))!.health).toBe('healthy');
    await killAndWait(other);
  });

  it('lists them all in one pass, and something else is not a lock', async () => {
    fs.writeFileSync(`${dir}/notes.txt`, 'hello');
    const page = await storeOf(dir).list();
    expect(page.locks.map((l) => l.name)).not.toContain('notes.txt');
    expect(page.skipped).toBeGreaterThanOrEqual(1);
    expect(page.locks.every((l) => l.terms.storeLabel === 'Lock files')).toBe(true);
  });
});
