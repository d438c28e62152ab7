// The demo's lock directory: a live holder, a crashed one and a stale git lock, as the store lists them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startDemoFiles } from '@/lib/demo/files';
import { Stopper } from '@/lib/demo/stopper';
import { openSource, parseSource } from '@/lib/lock/stores';

const data = fs.mkdtempSync(path.join(os.tmpdir(), 'lb-demo-files-'));
afterAll(() => fs.rmSync(data, { recursive: true, force: true }));

it('holds a live lock, leaves a crashed one and a stale git index.lock, and takes its own', async () => {
  const stop = new Stopper();
  const demo = await startDemoFiles(data, stop);
  try {
    const store = await openSource(parseSource(demo.url), { env: {}, role: 'cli' });
    const byName = new Map((await store.list()).locks.map((l) => [l.name, l]));
    expect(byName.get('nightly-report.lock')?.health).toBe('healthy');
    expect(byName.get('nightly-report.lock')?.identity).toMatch(/^pid \d+ \(python3/);
    expect(byName.get('invoice-export.lock')?.health).toBe('expired');
    expect([byName.get('site/.git/index.lock')?.format, byName.get('site/.git/index.lock')?.health]).toEqual([
      'git',
      'expired',
    ]);
    expect(byName.get('mail-spool.lock')?.health).toBe('expired');
    await new Promise((r) => setTimeout(r, 200));
    expect((await store.inspect('rotate-logs.lockd'))?.format).toBe('lockboard-dir');
  } finally {
    stop.stop();
    await demo.stop();
  }
});
