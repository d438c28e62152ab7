// A lock directory is hostile ground (#51): an untrusted user (`nobody`) plants links, FIFOs, devices, malformed
// bodies and names that are not UTF-8 in a directory root's CLI and library read; nothing outside it changes, no read
// blocks, one bad entry costs that entry only, and nothing hides.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { storeOf, tempDir } from './tools';
import { readEntryAsLock } from '@/lib/lock/stores/files/formats-special';
import { newGeneration, releaseGeneration, tryAcquireGeneration } from '@/lib/lock/stores/files/gendir';
import { scanHolders } from '@/lib/lock/stores/files/proc';

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A directory `nobody` may write (as a shared lock directory is), with whatever it planted. */
function hostileDir(): string {
  const dir = tempDir();
  dirs.push(dir);
  fs.chmodSync(dir, 0o777);
  return dir;
}

const asNobody = (cmd: string) => execFileSync('runuser', ['-u', 'nobody', '--', 'sh', '-c', cmd]);

/** A stale empty lock file whose name a shell would run, and its version as `status` prints it. */
async function staleLock(dir: string): Promise<{ name: string; version: string }> {
  const name = '$(touch PWNED).lock';
  fs.writeFileSync(path.join(dir, name), '');
  const v = (await storeOf(dir).inspect(name))!;
  expect(v.releasable, v.releaseNote).toBe(true);
  return { name, version: v.version };
}

describe.runIf(isRoot)('the trail is Lockboard’s own', () => {
  it('a planted symlink .lockboard: release refused (exit 3), the outside file unchanged', async () => {
    const dir = hostileDir();
    const secret = fs.mkdtempSync(path.join(os.tmpdir(), 'lb-secret-'));
    dirs.push(secret);
    fs.chmodSync(secret, 0o700);
    fs.writeFileSync(`${secret}/audit.jsonl`, 'untouched\n');
    const { name, version } = await staleLock(dir);
    asNobody(`ln -s ${secret} ${dir}/.lockboard`);
    const r = await runCli(['release', `file://${dir}`, name, '--version', version, '--reason', 't'], {});
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/symbolic link/);
    expect(fs.readFileSync(`${secret}/audit.jsonl`, 'utf8')).toBe('untouched\n');
    expect(fs.readdirSync(secret)).toEqual(['audit.jsonl']); // no release guard created there either
    expect(fs.existsSync(path.join(dir, name))).toBe(true);
  }, 30_000);

  it('a .lockboard planted by nobody (its owner) or a symlink audit.jsonl: refused, nothing written', async () => {
    const dir = hostileDir();
    const { name, version } = await staleLock(dir);
    asNobody(`mkdir ${dir}/.lockboard && ln -s /etc/passwd ${dir}/.lockboard/audit.jsonl`);
    const before = fs.readFileSync('/etc/passwd', 'utf8');
    const store = storeOf(dir);
    await expect(store.forceRelease({ name, version, operator: 'o', reason: 't' })).rejects.toThrow(
      /owned by uid|symbolic link/,
    );
    expect(fs.readFileSync('/etc/passwd', 'utf8')).toBe(before);
    fs.rmSync(`${dir}/.lockboard`, { recursive: true });
    fs.mkdirSync(`${dir}/.lockboard`);
    fs.symlinkSync('/etc/passwd', `${dir}/.lockboard/audit.jsonl`);
    await expect(store.forceRelease({ name, version, operator: 'o', reason: 't' })).rejects.toThrow(/symbolic link/);
    await expect(store.readAudit(new Date(0), new Date())).rejects.toThrow(/unreadable/);
    expect(fs.readFileSync('/etc/passwd', 'utf8')).toBe(before);
  }, 30_000);

  it('a FIFO trail: release exits 3 within 10 s, reading the trail says unreadable at once', async () => {
    const dir = hostileDir();
    const { name, version } = await staleLock(dir);
    fs.mkdirSync(`${dir}/.lockboard`);
    execFileSync('mkfifo', [`${dir}/.lockboard/audit.jsonl`]);
    const t0 = Date.now();
    const r = await runCli(['release', `file://${dir}`, name, '--version', version, '--reason', 't'], {});
    expect(r.code, r.stderr).toBe(3);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(r.stderr).toMatch(/FIFO/);
    await expect(storeOf(dir).readAudit(new Date(0), new Date())).rejects.toThrow(/a FIFO/);
    expect(fs.existsSync(path.join(dir, name))).toBe(true);
  }, 30_000);

  it('nobody swaps .lockboard for a symlink in a loop during 40 releases: nothing is written outside', async () => {
    const dir = hostileDir();
    const secret = fs.mkdtempSync(path.join(os.tmpdir(), 'lb-secret-'));
    dirs.push(secret);
    fs.chmodSync(secret, 0o700);
    fs.writeFileSync(`${secret}/audit.jsonl`, 'untouched\n');
    fs.mkdirSync(`${dir}/.lockboard`); // root's own, as a first release makes it
    const loop = `while :; do mv ${dir}/.lockboard ${dir}/.away 2>/dev/null && ln -s ${secret} ${dir}/.lockboard; /bin/true; /bin/true; rm -f ${dir}/.lockboard 2>/dev/null; mv ${dir}/.away ${dir}/.lockboard 2>/dev/null; echo >> ${dir}/.swaps; done`;
    const swapper = spawn('runuser', ['-u', 'nobody', '--', 'sh', '-c', loop], { detached: true, stdio: 'ignore' });
    const outcomes: Record<string, number> = {};
    try {
      for (let i = 0; i < 40; i++) {
        const name = `stale-${i}.lock`;
        fs.writeFileSync(path.join(dir, name), '');
        const v = (await storeOf(dir).inspect(name))!;
        const key = await storeOf(dir)
          .forceRelease({ name, version: v.version, operator: 'o', reason: 't' })
          .then(
            (r) => r.outcome,
            // a trail that vanished mid-swap (ENOENT) refuses before deleting, as a planted link does
            (err: Error) =>
              err.name === 'UnsafePathError' || /refused|not attempted[^]*Nothing was deleted/.test(err.message)
                ? 'refused'
                : err.message,
          );
        if (key === 'refused') expect(fs.existsSync(path.join(dir, name)), `${name} kept when refused`).toBe(true);
        outcomes[key] = (outcomes[key] ?? 0) + 1;
      }
      expect(swapper.exitCode).toBeNull(); // it swapped all along
      expect(fs.readFileSync(`${dir}/.swaps`, 'utf8').length).toBeGreaterThan(40);
    } finally {
      process.kill(-swapper.pid!, 'SIGKILL');
    }
    console.log(`40 releases under a swapping parent: ${JSON.stringify(outcomes)}`);
    expect(
      Object.keys(outcomes).every((k) => k === 'released' || k === 'refused'),
      JSON.stringify(outcomes),
    ).toBe(true);
    expect(fs.readdirSync(secret)).toEqual(['audit.jsonl']); // no release guard, claim or trail made there
    expect(fs.readFileSync(`${secret}/audit.jsonl`, 'utf8')).toBe('untouched\n');
  }, 120_000);

  it("nobody swaps a job's fresh .lockd for a symlink in a loop during 4 s of acquisitions: nothing is linked outside", async () => {
    const dir = hostileDir();
    const secret = fs.mkdtempSync(path.join(os.tmpdir(), 'lb-secret-'));
    dirs.push(secret);
    fs.chmodSync(secret, 0o777); // writable by all: only the lock's own checks keep a generation out of it
    const L = `${dir}/job.lockd`;
    const loop = `while :; do rmdir ${L} 2>/dev/null && ln -s ${secret} ${L} && echo >> ${dir}/.swaps; rm -f ${L} 2>/dev/null; done`;
    const swapper = spawn('runuser', ['-u', 'nobody', '--', 'sh', '-c', loop], { detached: true, stdio: 'ignore' });
    let held = 0;
    let tries = 0;
    try {
      for (const end = Date.now() + 4_000; Date.now() < end; tries++) {
        const file = await tryAcquireGeneration(dir, newGeneration({ dir, job: 'job', owner: 't', ttlMs: 5_000 }));
        if (!file) continue;
        held++;
        releaseGeneration(file);
      }
      expect(swapper.exitCode).toBeNull(); // it swapped all along
    } finally {
      process.kill(-swapper.pid!, 'SIGKILL');
    }
    const swaps = fs.existsSync(`${dir}/.swaps`) ? fs.readFileSync(`${dir}/.swaps`, 'utf8').length : 0;
    console.log(`${tries} acquisitions under a swapping .lockd: ${held} held, ${swaps} swaps`);
    expect(swaps).toBeGreaterThan(0);
    expect(fs.readdirSync(secret)).toEqual([]);
  }, 120_000);

  it('a trail of its own is written and read as before; the record is JSON with the name as data', async () => {
    const dir = hostileDir();
    const { name, version } = await staleLock(dir);
    const r = await storeOf(dir).forceRelease({ name, version, operator: 'o', reason: 't' });
    expect(r.outcome).toBe('released');
    const st = fs.lstatSync(`${dir}/.lockboard/audit.jsonl`);
    expect(st.isFile() && (st.mode & 0o022) === 0).toBe(true);
    const lines = fs.readFileSync(`${dir}/.lockboard/audit.jsonl`, 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { lock: string }).lock)).toContain(name);
    expect(fs.existsSync(`${dir}/PWNED`)).toBe(false);
  });
});

describe.runIf(isRoot)('no read blocks', () => {
  it('a FIFO, a socket-less device link and a symlink to /dev/zero in DIR are listed without blocking', async () => {
    const dir = hostileDir();
    fs.writeFileSync(`${dir}/good.lock`, '');
    asNobody(`mkfifo ${dir}/fifo.lock && ln -s /dev/zero ${dir}/zero.lock && ln -s /dev/zero ${dir}/zero.pid`);
    const t0 = Date.now();
    const page = await storeOf(dir).list();
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(page.locks.map((l) => l.name)).toContain('good.lock');
    expect(await storeOf(dir).inspect('fifo.lock')).toMatchObject({ releasable: false });
  });

  it('a FIFO and a /dev/zero link in another job’s .lockd: acquisition answers, run --timeout 3s exits by itself', async () => {
    const dir = hostileDir();
    asNobody(`mkdir ${dir}/job.lockd && mkfifo ${dir}/job.lockd/a.json && ln -s /dev/zero ${dir}/job.lockd/b.json`);
    const g = newGeneration({ dir, job: 'job', owner: 't', ttlMs: 5_000 });
    expect(await tryAcquireGeneration(dir, g)).toBeNull(); // treated as held, never read
    const t0 = Date.now();
    const r = await runCli(['run', '--source', `file://${dir}`, 'job', '--timeout', '3s', '--', 'true'], {});
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(r.code, r.stderr).toBe(75);
  }, 30_000);
});

describe('one bad entry costs one entry', () => {
  it('a DIRC index.lock of every length 4–12 lists beside the other locks', async () => {
    const dir = tempDir();
    dirs.push(dir);
    fs.writeFileSync(`${dir}/good.lock`, '');
    for (let n = 4; n <= 12; n++) {
      fs.mkdirSync(`${dir}/r${n}/.git`, { recursive: true });
      const body = Buffer.alloc(n);
      body.write('DIRC');
      fs.writeFileSync(`${dir}/r${n}/.git/index.lock`, body);
    }
    const page = await storeOf(dir, '?depth=3').list();
    const names = page.locks.map((l) => l.name);
    expect(names).toContain('good.lock');
    for (let n = 4; n <= 12; n++) expect(names).toContain(`r${n}/.git/index.lock`);
  });

  it('every reader is total: truncated and random bodies under every name never throw', () => {
    const dir = tempDir();
    dirs.push(dir);
    const c = { scan: scanHolders(), host: os.hostname(), nowMs: Date.now() };
    const seeds = [
      'DIRC\0\0\0\x02\0\0\0\x05',
      `${process.pid}\n${os.hostname()}\n123\n`,
      '{"ID":"x","Operation":"apply","Who":"a"}',
      '{"tool":"lockboard","ttlMs":1,"pid":1,"host":"h","owner":"o","token":"1"}',
      '0',
      '12345\n',
      'vm/effffffc:29056',
    ].map((s) => Buffer.from(s));
    const names = ['x.lock', 'x.pid', '.x.lock.info', 'a/.git/index.lock', 'gc.pid', 'j.lockd', 'x'];
    let tried = 0;
    for (const name of names)
      for (const body of [...seeds.flatMap((s) => [...Array(s.length + 1).keys()].map((i) => s.subarray(0, i)))]) {
        for (const b of [body, randomBytes(body.length)]) {
          for (const kind of ['file', 'symlink', 'dir'] as const) {
            const stat = fs.lstatSync(dir, { bigint: true });
            const e = { name, path: path.join(dir, name), stat, kind, body: b, read: true };
            expect(() => readEntryAsLock(e, c), `${name} ${kind} ${b.toString('hex')}`).not.toThrow();
            tried++;
          }
        }
      }
    expect(tried).toBeGreaterThan(1000);
  });
});

describe('nothing hides', () => {
  it('a name that is not valid UTF-8 is counted with its reason, and status never says free', async () => {
    const dir = tempDir();
    dirs.push(dir);
    fs.writeFileSync(Buffer.from(`${dir}/bad\xff\xfeutf.lock`, 'latin1'), '');
    fs.writeFileSync(`${dir}/good.lock`, '');
    const page = await storeOf(dir).list();
    expect(page.locks.map((l) => l.name)).toEqual(['good.lock']);
    expect(page.skipped).toBe(1);
    expect(page.skippedWhy?.join('\n')).toMatch(/bad\\xff\\xfeutf\.lock: the name is not valid UTF-8/);
    for (const asked of ['bad\\xff\\xfeutf.lock', 'bad\ufffd\ufffdutf.lock'])
      expect(await storeOf(dir).inspect(asked), asked).toMatchObject({ releasable: false });
    const ls = await runCli(['ls', `file://${dir}`], {});
    expect(ls.stdout).toMatch(/skipped bad\\xff\\xfeutf\.lock/);
    const st = await runCli(['status', `file://${dir}`, 'bad\\xff\\xfeutf.lock'], {});
    expect([0, 13], st.stdout + st.stderr).toContain(st.code); // held or "not a lock", never free (10) or a usage error
  }, 30_000);
});

describe.runIf(isRoot && spawnSync('id', ['nobody']).status === 0)('held before #51, kept', () => {
  it('a symlinked lock is never followed: its target is unchanged after a release', async () => {
    const dir = hostileDir();
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lb-target-')), 'x.lock');
    dirs.push(path.dirname(target));
    fs.writeFileSync(target, '');
    asNobody(`ln -s ${target} ${dir}/link.lock`);
    const v = await storeOf(dir).inspect('link.lock');
    if (v?.releasable)
      await storeOf(dir).forceRelease({ name: 'link.lock', version: v.version, operator: 'o', reason: 't' });
    expect(fs.existsSync(target)).toBe(true);
    expect(fs.lstatSync(target).isFile()).toBe(true);
    void NOBODY;
  });
});
