// The release protocol's rare outcomes (facts-files §7.3 cases c and d) reproduced with real processes, each made to
// act inside one of the protocol's windows by the store's test-only pauses (the real code path, paused):
//  W1, between the check and the rename: a successor breaks the stale lock and takes it (the seed's MachineLock);
//  W2, while the successor's displaced file is being put back: a third process takes the empty name.
// The outcome is reported as it is, the successor's file is never deleted (put back, or kept under a conflict name the
// listing shows, while its holder still has it open), and the trail beside the locks records it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { releaseWindows } from '@/lib/lock/stores/files/release';
import { killAndWait, MACHINE_LOCK, need, PYTHON, startHolder, storeOf, tempDir } from './tools';

/** Removes the stale lock first when asked (as a tool's own stale rule would), then takes it as the seed does. */
const TAKER = `import os, sys
if sys.argv[3] == 'break': os.unlink(os.path.join(sys.argv[2], sys.argv[1] + '.lock'))
exec(open(sys.argv[4]).read())`;

const children: ChildProcess[] = [];

/** Starts a real taker and waits (synchronously: the release is paused inside a sync window) until it holds. */
function takeNow(dir: string, mode: 'break' | 'create'): ChildProcess {
  const out = path.join(dir, `.out-${children.length}`);
  const fd = fs.openSync(out, 'w');
  const child = spawn(PYTHON, ['-c', TAKER, 'job', dir, mode, path.join(dir, '.machine-lock.py')], {
    stdio: ['ignore', fd, 'inherit'],
    detached: true,
  });
  fs.closeSync(fd);
  children.push(child);
  const end = Date.now() + 10_000;
  while (!fs.readFileSync(out, 'utf8').includes('\n')) {
    if (Date.now() > end) throw new Error(`the ${mode} taker did not take the lock in 10 s`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  }
  return child;
}

/** The inode the process holds open (its lock file, wherever it is now). */
function heldInode(pid: number): bigint {
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    const link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
    if (link.includes('job.lock')) return fs.statSync(`/proc/${pid}/fd/${fd}`, { bigint: true }).ino;
  }
  throw new Error(`pid ${pid} holds no job.lock`);
}

const ino = (p: string) => fs.statSync(p, { bigint: true }).ino;

describe('a successor appearing inside the release windows', () => {
  let dir: string;
  beforeAll(() => need(PYTHON, 'apt-get install python3'));
  afterEach(async () => {
    delete releaseWindows.checked;
    delete releaseWindows.displaced;
    for (const c of children.splice(0)) await killAndWait(c);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  afterAll(() => expect(children).toEqual([]));

  /** A crashed MachineLock's file, viewed (stale) by the operator. */
  async function staleLock() {
    dir = tempDir();
    fs.writeFileSync(path.join(dir, '.machine-lock.py'), MACHINE_LOCK);
    const crashed = await startHolder(PYTHON, ['-c', MACHINE_LOCK, 'job', dir]);
    await killAndWait(crashed);
    const store = storeOf(dir);
    const seen = (await store.inspect('job.lock'))!;
    expect(seen.health).toBe('expired');
    return { store, version: seen.version, lock: path.join(dir, 'job.lock') };
  }

  it('W1: the successor displaced by the rename is put back untouched, with its inode', async () => {
    const { store, version, lock } = await staleLock();
    let successor: ChildProcess | undefined;
    releaseWindows.checked = () => (successor = takeNow(dir, 'break'));
    const r = await store.forceRelease({ name: 'job.lock', version, reason: 'crashed', operator: 'ci' });
    expect([r.outcome, r.detail]).toEqual([
      'changed',
      'a successor took the lock at the same moment; its file was put back untouched',
    ]);
    expect(ino(lock)).toBe(heldInode(successor!.pid!));
    expect([r.current?.health, r.current?.pid]).toEqual(['healthy', String(successor!.pid)]);
    expect(fs.readdirSync(dir).filter((n) => /lockboard-release-|conflict-/.test(n))).toEqual([]);
  });

  it('W2: a third process takes the empty name: CONFLICT reported and audited, the successor’s file kept', async () => {
    const { store, version, lock } = await staleLock();
    let successor: ChildProcess | undefined;
    let third: ChildProcess | undefined;
    releaseWindows.checked = () => (successor = takeNow(dir, 'break'));
    releaseWindows.displaced = () => (third = takeNow(dir, 'create'));
    const r = await store.forceRelease({ name: 'job.lock', version, reason: 'crashed', operator: 'ci' });

    expect(r.outcome).toBe('changed'); // not released: nothing was removed
    const m =
      /^CONFLICT: .*a third process created the lock; both may be running now\. .* kept at (\S+) as evidence$/.exec(
        r.detail ?? '',
      );
    expect(m, r.detail).not.toBeNull();
    const side = m![1]!;
    // nothing of the successor's lost: its file, still open in the live successor, is at the side name
    expect(path.dirname(side)).toBe(dir);
    expect(ino(side)).toBe(heldInode(successor!.pid!));
    expect(successor!.exitCode).toBeNull();
    // the name is the third's, and the store says so
    expect(ino(lock)).toBe(heldInode(third!.pid!));
    expect([r.current?.health, r.current?.pid]).toEqual(['healthy', String(third!.pid)]);
    // the listing shows both holders: the successor's file under its conflict name, held by the successor
    const listed = (await store.list()).locks.map((l) => [l.name, l.health, l.pid]);
    expect(listed).toEqual([
      [path.basename(side), 'healthy', String(successor!.pid)],
      ['job.lock', 'healthy', String(third!.pid)],
    ]);

    // the trail beside the locks: the attempt, then the outcome with the conflict and where the evidence is
    const events = await store.readAudit(new Date(Date.now() - 60_000), new Date(Date.now() + 1_000), 'job.lock');
    expect(events.map((e) => [e.event, e.outcome ?? ''])).toEqual([
      ['force-release-requested', ''],
      ['force-release-refused', 'changed'],
    ]);
    const lines = fs.readFileSync(path.join(dir, '.lockboard/audit.jsonl'), 'utf8').trim().split('\n');
    const last = JSON.parse(lines.at(-1)!) as Record<string, string>;
    expect([last.detail, last.side]).toEqual([r.detail, side]);
  });
});
