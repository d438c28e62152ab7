// filelock's SoftFileLock, old and new. Debian's python3-filelock (3.9) is the real tool for the old empty body.
// filelock ≥ 3.22 is not installable here (no PyPI), so its body is a fixture written byte for byte as the released
// source writes it:
//   tox-dev/filelock, tag 3.22.0 (commit 1dd2465), src/filelock/_soft.py: `_acquire` opens the lock with
//   O_WRONLY | O_CREAT | O_EXCL | O_TRUNC | O_NOFOLLOW and mode 0o644 (`_api.py` default), keeps the fd, and
//   `_write_lock_info` writes f"{os.getpid()}\n{socket.gethostname()}\n";
//   tag 3.30.0, `_soft.py` `_write_lock_info` adds f"{token}\n", where `_identity.py` `process_start_token` (Linux)
//   is (int(boot_id without dashes, 16) << 64) | starttime (/proc/<pid>/stat field 22).
// Its rule for breaking a lock: same host, and the pid gone (or alive with another start token, 3.30).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAndWait, need, PYTHON, startHolder, stopAll, storeOf, tempDir } from './tools';

/** A process holding a SoftFileLock ≥ 3.22 exactly as that version leaves it: O_EXCL, fd kept, `pid\nhost\n`. */
const SOFT_322 = `import os, socket, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
os.write(fd, f"{os.getpid()}\\n{socket.gethostname()}\\n".encode())
print(os.getpid(), flush=True); time.sleep(120)`;

const OLD = `import filelock, os, sys, time
lock = filelock.SoftFileLock(sys.argv[1]); lock.acquire()
print(os.getpid(), filelock.__version__, flush=True); time.sleep(120)`;

const startTicks = (pid: number) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return BigInt(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!);
};
const bootId = () =>
  BigInt(`0x${fs.readFileSync('/proc/sys/kernel/random/boot_id', 'ascii').trim().replace(/-/g, '')}`);

describe('SoftFileLock', () => {
  let dir: string;
  beforeAll(() => {
    need(PYTHON, 'apt-get install python3');
    const v = spawnSync(PYTHON, ['-c', 'import filelock; print(filelock.__version__)'], { encoding: 'utf8' });
    if (v.status !== 0) throw new Error('python3-filelock is missing: apt-get install python3-filelock');
    dir = tempDir();
  });
  afterAll(async () => {
    await stopAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("Debian's filelock (< 3.22) writes an empty body: its holder is found by its open fd", async () => {
    const holder = await startHolder(PYTHON, ['-c', OLD, `${dir}/old.lock`]);
    expect(fs.statSync(`${dir}/old.lock`).size).toBe(0);
    const v = (await storeOf(dir).inspect('old.lock'))!;
    expect([v.format, v.health, v.pid]).toEqual(['excl-file', 'healthy', String(holder.pid)]);
    await killAndWait(holder);
    expect((await storeOf(dir).inspect('old.lock'))!.health).toBe('expired');
  });

  it('≥ 3.22 (pid, host): a live holder is named and kept; after kill -9 stale by its rule on this host', async () => {
    const holder = await startHolder(PYTHON, ['-c', SOFT_322, `${dir}/new.lock`]);
    expect(fs.readFileSync(`${dir}/new.lock`)).toEqual(Buffer.from(`${holder.pid}\n${os.hostname()}\n`));
    expect(fs.statSync(`${dir}/new.lock`).mode & 0o777).toBe(0o644 & ~process.umask());
    const store = storeOf(dir);
    const live = (await store.inspect('new.lock'))!;
    expect([live.format, live.health, live.pid, live.host]).toEqual([
      'softfilelock',
      'healthy',
      String(holder.pid),
      os.hostname(),
    ]);
    const refused = await store.forceRelease({ name: 'new.lock', version: live.version, reason: 't', operator: 'ci' });
    expect(refused.outcome).toBe('refreshed');
    await killAndWait(holder);
    const stale = (await store.inspect('new.lock'))!;
    expect([stale.health, stale.note]).toEqual(['expired', `Stale: pid ${holder.pid} is not running.`]);
    // the same bytes from another host: filelock never breaks it, nor does Lockboard call it stale
    fs.writeFileSync(`${dir}/other.lock`, `${holder.pid}\nbuild-7\n`);
    expect((await store.inspect('other.lock'))!.health).toBe('unknown');
  });

  it('≥ 3.30 (pid, host, start token): the token of the live pid is the holder; another token a reused pid', async () => {
    const holder = await startHolder('sh', ['-c', 'echo up; exec sleep 120']);
    const pid = holder.pid!;
    const token = (bootId() << 64n) | startTicks(pid);
    fs.writeFileSync(`${dir}/a.lock`, `${pid}\n${os.hostname()}\n${token}\n`);
    fs.writeFileSync(`${dir}/b.lock`, `${pid}\n${os.hostname()}\n${token - 1n}\n`);
    fs.writeFileSync(`${dir}/c.lock`, `${pid}\n${os.hostname()}\n${token ^ (1n << 100n)}\n`); // another boot
    const store = storeOf(dir);
    const a = (await store.inspect('a.lock'))!;
    expect([a.format, a.health, a.identity]).toEqual(['softfilelock', 'healthy', expect.stringMatching(/\(sleep,/)]);
    for (const n of ['b.lock', 'c.lock']) {
      const v = (await store.inspect(n))!;
      expect([v.health, v.note]).toEqual([
        'expired',
        `Stale: pid ${pid} is another process (its start token differs).`,
      ]);
    }
  });
});
