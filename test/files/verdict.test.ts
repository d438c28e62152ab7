// The verdict on a lock file's holder from /proc (stores.md "Verdict"): the seed's MachineLock in Debian's python3
// alive, SIGSTOPped (stalled), SIGKILLed (gone); a pid reused by a later process (gone); a holder on another host
// (unknown).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgedStore } from '@/lib/lock/verdict/judged-store';
import { killAndWait, MACHINE_LOCK, need, PYTHON, startHolder, stopAll, storeOf, tempDir, until } from './tools';

/** A process that opens a lock file and keeps it open, without touching its bytes. */
const OPENER = `import sys, time; f = open(sys.argv[1], 'rb'); print(1, flush=True); time.sleep(60)`;

describe('the verdict on lock files held by real processes', () => {
  let dir: string;
  beforeAll(() => {
    need(PYTHON, 'apt-get install python3');
    dir = tempDir();
  });
  afterAll(async () => {
    await stopAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("judges the seed's MachineLock alive while it sleeps, stalled when stopped, gone once killed", async () => {
    const store = judgedStore(storeOf(dir));
    const holder = await startHolder(PYTHON, ['-c', MACHINE_LOCK, 'job', dir]);
    const alive = (await store.inspect('job.lock'))!;
    expect(alive.verdict).toBe('alive');
    expect(alive.sentence).toMatch(new RegExp(`^Alive: pid ${holder.pid} \\(python3\\) is sleeping`));
    expect(alive.evidence?.[0]).toMatchObject({ from: `/proc/${holder.pid}/stat`, fact: /^state S/ });
    expect(alive).not.toHaveProperty('signs');
    holder.kill('SIGSTOP');
    const stalled = await until(async () => {
      const v = (await store.inspect('job.lock'))!;
      return v.verdict === 'stalled' ? v : undefined;
    }, 'the holder stopped');
    expect(stalled.sentence).toMatch(/^Stalled: pid \d+ \(python3\) is stopped \(T\)/);
    await killAndWait(holder);
    const gone = (await store.inspect('job.lock'))!;
    expect(gone.verdict).toBe('gone');
    expect(gone.sentence).toMatch(/^Holder gone: /);
    const listed = await store.list();
    expect(listed.locks.find((l) => l.name === 'job.lock')?.verdict).toBe('gone');
  });

  it('judges a pid now used by a later process gone, and a holder on another host unknown', async () => {
    const store = judgedStore(storeOf(dir));
    const later = await startHolder(PYTHON, ['-c', 'import os,time; print(os.getpid(), flush=True); time.sleep(60)']);
    const reused = path.join(dir, 'reused.lock');
    fs.writeFileSync(reused, `${later.pid}\n${os.hostname()}\n`);
    const hourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(reused, hourAgo, hourAgo);
    const r = (await store.inspect('reused.lock'))!;
    expect(r.verdict).toBe('gone');
    expect(r.sentence).toMatch(/reused/);
    fs.writeFileSync(path.join(dir, 'far.lock'), `4711\nbuild-host-7\n`);
    const far = (await store.inspect('far.lock'))!;
    expect(far.verdict).toBe('unknown');
    expect(far.sentence).toMatch(/build-host-7/);
  });

  it("judges a holder that opened a dead holder's file a moment after the last look alive at once", async () => {
    // a release's re-judgment inspects right after a listing's scan: the process that opened the file since is in no
    // earlier scan, and a scan reused from before it called the holder gone (CI: a live holder's lock "released")
    const store = judgedStore(storeOf(dir));
    await killAndWait(await startHolder(PYTHON, ['-c', MACHINE_LOCK, 'revived', dir]));
    expect((await store.inspect('revived.lock'))!.verdict).toBe('gone');
    const opener = await startHolder(PYTHON, ['-c', OPENER, path.join(dir, 'revived.lock')]);
    const now = (await store.inspect('revived.lock'))!;
    expect(now.verdict).toBe('alive');
    expect(now.sentence).toMatch(new RegExp(`pid ${opener.pid} \\(python3\\)`));
  });
});
