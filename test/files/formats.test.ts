// Pure logic of recognition, where the tool that writes the format is not installed here: /proc/locks lines (waiters,
// OFD's pid -1), SoftFileLock ≥ 3.22's pid/host body, Mercurial's symlink, Terraform's leftover info without a state.
import fs from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { devKey, parseProcLocks } from '@/lib/lock/stores/files/proc';
import { storeOf, tempDir } from './tools';

describe('recognition', () => {
  let dir: string;
  afterEach(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

  it('reads /proc/locks: holders by MAJ:MIN:INO, blocked waiters left out, OFD locks with pid -1', () => {
    const t = parseProcLocks(
      [
        '1: OFDLCK ADVISORY  WRITE -1 fe:00:2231688 0 EOF',
        '2: POSIX  ADVISORY  WRITE 8812 fe:00:2231686 0 EOF',
        '26: FLOCK  ADVISORY  WRITE 8811 fe:00:2231689 0 EOF',
        '26: -> FLOCK  ADVISORY  WRITE 9683 fe:00:2231689 0 EOF',
      ].join('\n'),
    );
    expect(t.get('fe:00:2231689')).toEqual([{ kind: 'FLOCK', access: 'WRITE', pid: 8811 }]);
    expect(t.get('fe:00:2231688')).toEqual([{ kind: 'OFDLCK', access: 'WRITE', pid: -1 }]);
    expect(devKey(65024n, 2231689n)).toBe('fe:00:2231689');
    expect(devKey(39n, 5n)).toBe('00:27:5'); // tmpfs
  });

  it('SoftFileLock ≥ 3.22 (pid, host): alive here, dead here, unknown on another host', async () => {
    dir = tempDir();
    fs.writeFileSync(`${dir}/a.lock`, `${process.pid}\n${os.hostname()}\n`);
    fs.writeFileSync(`${dir}/b.lock`, `999999\n${os.hostname()}\n`);
    fs.writeFileSync(`${dir}/c.lock`, `${process.pid}\nbuild-7\n`);
    const store = storeOf(dir);
    const health = async (n: string) => (await store.inspect(n))!.health;
    expect((await store.inspect('a.lock'))!.format).toBe('softfilelock');
    expect([await health('a.lock'), await health('b.lock'), await health('c.lock')]).toEqual([
      'healthy',
      'expired',
      'unknown',
    ]);
  });

  it('Mercurial symlink host/ns:pid: a dead pid here is stale, another host unknown; a leftover Terraform info is free', async () => {
    dir = tempDir();
    fs.symlinkSync(`${os.hostname()}/effffffc:999999`, `${dir}/wlock`);
    fs.symlinkSync('laptop/effffffc:4242', `${dir}/lock`);
    fs.writeFileSync(
      `${dir}/.terraform.tfstate.lock.info`,
      JSON.stringify({ ID: 'x', Operation: 'OperationTypeApply' }),
    );
    const store = storeOf(dir);
    expect([(await store.inspect('wlock'))!.format, (await store.inspect('wlock'))!.health]).toEqual([
      'mercurial',
      'expired',
    ]);
    expect((await store.inspect('lock'))!.health).toBe('unknown');
    expect((await store.inspect('.terraform.tfstate.lock.info'))!.health).toBe('free');
  });

  it("git's gc.pid (pid host, no newline): another host's is unknown for 12 hours, then stale by git's own rule", async () => {
    dir = tempDir();
    fs.writeFileSync(`${dir}/gc.pid`, '15195 ci-runner-3');
    const store = storeOf(dir);
    expect((await store.inspect('gc.pid'))!.health).toBe('unknown');
    const old = new Date(Date.now() - 13 * 3_600_000);
    fs.utimesSync(`${dir}/gc.pid`, old, old);
    expect((await store.inspect('gc.pid'))!.health).toBe('expired');
  });
});
