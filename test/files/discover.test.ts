// lockboard discover on lock-file directories: file:///DIR is walked as `ls file:///DIR?depth=3` walks it, its lock
// files grouped by the subdirectory they are in (each a source ls takes), deeper ones left to a deeper target; the
// sample bounds the entries read; nothing in the tree is created or changed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discover, lsFormats } from '../cli/discover-fixtures';
import { tempDir } from './tools';

let dir: string;

/** Every entry of the tree with its size and modification time: a write of any kind changes it. */
function snapshot(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const s = fs.lstatSync(p);
      out.push(`${path.relative(root, p)} ${s.size} ${s.mtimeMs}`);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(root);
  return out.sort();
}

beforeAll(() => {
  dir = tempDir();
  const softFileLock = `${process.pid}\n${os.hostname()}\n`; // filelock's SoftFileLock >= 3.22: pid, host
  const write = (rel: string, body: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), body);
  };
  write('svc/api.lock', softFileLock);
  write('svc/worker.lock', softFileLock);
  write('jobs/x/y/nightly.lock', softFileLock); // three levels down: within the default depth
  write('far/a/b/c/too-deep.lock', softFileLock); // four: not walked
  for (let i = 0; i < 200; i++) write(`data/part-${String(i).padStart(3, '0')}.csv`, 'a,b\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('lockboard discover file:///DIR', () => {
  it('finds the lock files by subdirectory within the depth, with the formats ls lists there, and writes nothing', async () => {
    const before = snapshot(dir);
    const { report, bySource } = await discover(`file://${dir}`);
    expect(report.unreachable).toBeUndefined();
    expect(Object.keys(bySource).sort()).toEqual([`file://${dir}/jobs?depth=2`, `file://${dir}/svc?depth=2`]);
    expect(bySource[`file://${dir}/svc?depth=2`]!.locks).toBe(2);
    for (const [source, c] of Object.entries(bySource)) expect(c.formats).toEqual(await lsFormats(source));
    expect(report.problems).toEqual([]);
    expect(snapshot(dir)).toEqual(before);
  });

  it('walks deeper when the target says so', async () => {
    const { bySource } = await discover(`file://${dir}?depth=4`);
    expect(bySource[`file://${dir}/far?depth=3`]?.locks).toBe(1);
  });

  it('reads at most the sample and says it was capped', async () => {
    const { report } = await discover(`file://${dir}`, { sample: 20 });
    expect(report.sampled).toBeLessThanOrEqual(20);
    expect(report.cappedBy).toBe('sample');
  });

  it('a directory that is not there is named as such', async () => {
    const { report } = await discover(`file://${dir}/nope`);
    expect(report.problems.join('\n') + (report.unreachable ?? '')).toMatch(/is not a directory/);
  });
});
