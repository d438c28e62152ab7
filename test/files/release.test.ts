// The release protocol on real files (facts-files §7.3): only the file the operator saw is removed; a replacement
// (even one that reused the inode number), a refresh, a directory lock, and a file already gone.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { entryAt, identityOf, versionOf } from '@/lib/lock/stores/files/entry';
import { removeIfSame } from '@/lib/lock/stores/files/release';
import { tempDir } from './tools';

const seen = (p: string) => versionOf(identityOf(entryAt(p, 'job.lock')!));

describe('remove only the file seen', () => {
  let dir: string;
  const lock = () => `${dir}/job.lock`;
  const guard = () => `${dir}/.lockboard/release`;
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('removes an unchanged file, and answers gone the second time', async () => {
    dir = tempDir();
    fs.writeFileSync(lock(), '0\n');
    const v = seen(lock());
    expect((await removeIfSame(lock(), 'job.lock', v, guard())).outcome).toBe('released');
    expect(fs.existsSync(lock())).toBe(false);
    expect((await removeIfSame(lock(), 'job.lock', v, guard())).outcome).toBe('gone');
    expect(fs.readdirSync(dir).filter((n) => n !== '.lockboard')).toEqual([]); // no side file left
  });

  it('keeps a successor, even one with the same inode number (ext4 reuses it at once)', async () => {
    dir = tempDir();
    fs.writeFileSync(lock(), '0\n');
    const before = fs.statSync(lock(), { bigint: true });
    const v = seen(lock());
    fs.unlinkSync(lock());
    fs.writeFileSync(lock(), '0\n');
    const after = fs.statSync(lock(), { bigint: true });
    const r = await removeIfSame(lock(), 'job.lock', v, guard());
    expect(r.outcome).toBe('changed');
    expect(fs.readFileSync(lock(), 'utf8')).toBe('0\n');
    console.log(`inode reused: ${before.ino === after.ino}`);
  });

  it('a refresh since (new mtime, same file) is refreshed and kept', async () => {
    dir = tempDir();
    fs.writeFileSync(lock(), '');
    const v = seen(lock());
    const later = new Date(Date.now() + 2_000);
    fs.utimesSync(lock(), later, later);
    expect((await removeIfSame(lock(), 'job.lock', v, guard())).outcome).toBe('refreshed');
    expect(fs.existsSync(lock())).toBe(true);
  });

  it('removes an empty lock directory (proper-lockfile) only while it is the one seen', async () => {
    dir = tempDir();
    fs.mkdirSync(lock());
    const v = seen(lock());
    fs.writeFileSync(`${lock()}/inside`, 'x');
    expect((await removeIfSame(lock(), 'job.lock', v, guard())).outcome).not.toBe('released'); // its entries changed
    expect(fs.existsSync(`${lock()}/inside`)).toBe(true);
    fs.unlinkSync(`${lock()}/inside`);
    expect((await removeIfSame(lock(), 'job.lock', seen(lock()), guard())).outcome).toBe('released');
    expect(fs.existsSync(lock())).toBe(false);
  });
});
