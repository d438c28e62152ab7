// One contender in the race tests, run as its own process (node --import tsx): logs each critical section as
// "t_enter t_exit" (CLOCK_MONOTONIC ns, shared by every process) to stdout.
//   own DIR N TTL CRASH%   Lockboard's own lock (gendir): N acquisitions, CRASH% abandoned without release
//   holder DIR N CRASH%    an O_EXCL lock file released by rename-verify of its own version; CRASH% left behind,
//                          their versions appended to DIR/crashed.log
//   releaser DIR MS        force-releases every crashed version it reads, for MS ms or until DIR/done; prints its
//                          outcomes
import fs from 'node:fs';
import path from 'node:path';
import { identityOf, versionOf } from '../../lib/lock/stores/files/entry';
import { newGeneration, releaseGeneration, tryAcquireGeneration } from '../../lib/lock/stores/files/gendir';
import { removeIfSame } from '../../lib/lock/stores/files/release';

const [mode, dir, a, b, c] = process.argv.slice(2) as [string, string, string, string, string];
const now = () => process.hrtime.bigint();
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const spin = (maxMs: number) => pause(Math.random() * maxMs);
const out: string[] = [];

if (mode === 'own') {
  const [n, ttlMs, crash] = [Number(a), Number(b), Number(c)];
  for (let i = 0; i < n; i++) {
    let file: string | null = null;
    while (!file) {
      file = await tryAcquireGeneration(dir, newGeneration({ dir, job: 'job', owner: `p${process.pid}`, ttlMs }));
      if (!file) spin(1);
    }
    const t0 = now();
    spin(3);
    const t1 = now();
    // a holder descheduled past its TTL was taken over: its next refresh (utimes on the path) finds the generation
    // gone and aborts the job (a lease's limit, facts-files §8.3); such a section is marked, not hidden
    const lost = !fs.existsSync(file);
    out.push(`${t0} ${t1}${lost ? ' lost' : ''}`);
    if (Math.random() * 100 >= crash) releaseGeneration(file);
  }
} else if (mode === 'holder') {
  const [n, crash] = [Number(a), Number(b)];
  const lock = path.join(dir, 'job.lock');
  for (let i = 0; i < n; i++) {
    const body = Buffer.from(`${process.pid} ${i}\n`);
    let fd: number;
    for (;;) {
      try {
        fd = fs.openSync(lock, 'wx');
        break;
      } catch {
        spin(1);
      }
    }
    const t0 = now();
    fs.writeSync(fd, body);
    // from the fd: the path may be empty for a moment while an operator's release puts a displaced file back
    const version = versionOf(identityOf({ stat: fs.fstatSync(fd, { bigint: true }), kind: 'file', body }));
    fs.closeSync(fd);
    spin(2);
    out.push(`${t0} ${now()}`);
    if (Math.random() * 100 < crash) fs.appendFileSync(path.join(dir, 'crashed.log'), `${version}\n`);
    else await removeIfSame(lock, 'job.lock', version, path.join(dir, '.lockboard/release'));
  }
} else {
  const end = Date.now() + Number(a);
  const done = new Set<string>();
  const outcomes: Record<string, number> = {};
  while (Date.now() < end && !fs.existsSync(path.join(dir, 'done'))) {
    let lines: string[] = [];
    try {
      const text = fs.readFileSync(path.join(dir, 'crashed.log'), 'utf8');
      lines = text
        .slice(0, text.lastIndexOf('\n') + 1)
        .split('\n')
        .filter(Boolean); // whole lines only
    } catch {
      /* none yet */
    }
    for (const v of lines) {
      if (done.has(v)) continue;
      done.add(v);
      const r = await removeIfSame(path.join(dir, 'job.lock'), 'job.lock', v, path.join(dir, '.lockboard/release'));
      const key = r.outcome === 'changed' && r.side ? 'conflict' : r.outcome;
      outcomes[key] = (outcomes[key] ?? 0) + 1;
    }
    pause(0.2);
  }
  out.push(JSON.stringify(outcomes));
}
process.stdout.write(out.join('\n') + '\n');
