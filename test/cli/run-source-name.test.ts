// `lockboard run SOURCE NAME -- command`, as ls, status, release and why take a lock: the source URL then the name
// (the older `--source SOURCE NAME` still works); anything more before "--" is still refused.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '@/lib/cli/run';

/** A command that writes the lock it ran under (LOCKBOARD_LOCK) to `out`, then exits with `code`. */
const record = (out: string, code = 0) => [
  process.execPath,
  '-e',
  `require('fs').writeFileSync(${JSON.stringify(out)}, process.env.LOCKBOARD_LOCK); process.exit(${code})`,
];

describe('lockboard run SOURCE NAME', () => {
  it('runs the command under NAME in SOURCE, the same lock as --source SOURCE NAME, with its exit code', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lb-run-'));
    const [a, b] = [join(dir, 'a'), join(dir, 'b')];
    expect(await runCommand([`file://${dir}`, 'nightly', '--quiet', '--', ...record(a, 3)])).toBe(3);
    expect(await runCommand(['--source', `file://${dir}`, 'nightly', '--quiet', '--', ...record(b)])).toBe(0);
    expect(readFileSync(a, 'utf8')).toMatch(/nightly$/);
    expect(readFileSync(a, 'utf8')).toBe(readFileSync(b, 'utf8'));
  });

  it('still refuses a third argument before "--", and a second one after --source', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lb-run-'));
    await expect(runCommand([`file://${dir}`, 'nightly', 'extra', '--', 'true'])).rejects.toThrow(
      /Unexpected argument "extra": put the command after "--"/,
    );
    await expect(runCommand(['--source', `file://${dir}`, 'nightly', 'extra', '--', 'true'])).rejects.toThrow(
      /Unexpected argument "extra"/,
    );
    await expect(runCommand(['nightly', 'extra', '--', 'true'])).rejects.toThrow(/Unexpected argument "extra"/);
  });

  it('names the form in its help', async () => {
    const { RUN_HELP } = await import('@/lib/cli/run');
    expect(RUN_HELP).toMatch(/lockboard run SOURCE <lock> \[options\] -- <command>/);
  });
});
