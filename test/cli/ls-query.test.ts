// lockboard ls at any size, as a real process against Debian's redis-server: --filter/--health/--sort/--limit answer
// over every lock (the console's query), --json streams one lock per line past STREAM_AT locks, bad flags are usage
// errors (2) that name the choices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_AT } from '@/lib/cli/ls-query';
import { runCli } from '../helpers/cli';
import { startRedis, type TestRedis } from '../helpers/redis';
import { fillRedis } from '../helpers/scale';

let r: TestRedis;
let big: TestRedis;
const LOCKS = STREAM_AT + 500;
beforeAll(async () => {
  [r, big] = await Promise.all([startRedis(), startRedis()]);
  await fillRedis(r.client as never, 300);
  await fillRedis(big.client as never, LOCKS);
}, 60_000);
afterAll(() => Promise.all([r?.stop(), big?.stop()]));

const src = (x: TestRedis) => `redis://127.0.0.1:${x.port}/0`;

describe('lockboard ls with a query', () => {
  it('filters and sorts over every lock and prints one window with what it left out', async () => {
    const ls = await runCli(
      ['ls', src(r), '--filter', 'LOCK:29', '--sort', 'name', '--order', 'desc', '--limit', '3'],
      {},
    );
    expect(ls.code, ls.stderr).toBe(0);
    const names = ls.stdout
      .split('\n')
      .filter((l) => l.startsWith('lock:'))
      .map((l) => l.split(/\s+/)[0]);
    expect(names).toEqual(['lock:299', 'lock:298', 'lock:297']);
    expect(ls.stdout).toMatch(/3 shown of 11 matching, 300 locks under redis:\/\/127\.0\.0\.1:\d+\/0 \(raise --limit/);
  });

  it('prints the window as JSON with matched, total and counts by health', async () => {
    const ls = await runCli(['ls', src(r), '--health', 'healthy', '--limit', '5', '--json'], {});
    const doc = JSON.parse(ls.stdout) as { matched: number; total: number; counts: { healthy: number }; locks: [] };
    expect(doc.total).toBe(300);
    expect(doc.matched).toBe(300);
    expect(doc.counts.healthy).toBe(300);
    expect(doc.locks).toHaveLength(5);
  });

  it('refuses a health, sort, order or limit it does not know, naming the choices (2)', async () => {
    for (const [flag, value, says] of [
      ['--health', 'dead', /--health must be one of expired, overdue/],
      ['--sort', 'size', /--sort must be one of name, source, owner/],
      ['--order', 'up', /--order must be asc or desc/],
      ['--limit', '0', /--limit must be a whole number of at least 1/],
    ] as const) {
      const ls = await runCli(['ls', src(r), flag, value], {});
      expect(ls.code, `${flag} ${value}`).toBe(2);
      expect(ls.stderr).toMatch(says);
    }
  });
});

describe('lockboard ls --json at size', () => {
  it('prints one document for a small source', async () => {
    const ls = await runCli(['ls', src(r), '--json'], {});
    const doc = JSON.parse(ls.stdout) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(['serverTime', 'source', 'bucket', 'prefix', 'locks', 'skipped']);
    expect((doc.locks as unknown[]).length).toBe(300);
    expect(doc.skipped).toBe(300);
  });

  it(`streams a header, one lock per line past ${STREAM_AT} locks, then a closing line`, async () => {
    const ls = await runCli(['ls', src(big), '--json'], {});
    expect(ls.code, ls.stderr).toBe(0);
    const lines = ls.stdout.trim().split('\n');
    expect(lines).toHaveLength(LOCKS + 2);
    // the store's shared words once, in the header line; left out of every lock line (#51)
    expect(JSON.parse(lines[0]!)).toMatchObject({ stream: true, terms: expect.any(Object) });
    const body = lines.slice(1, -1).map((l) => JSON.parse(l) as { name: string; terms?: unknown });
    expect(body.filter((l) => l.terms)).toHaveLength(0);
    const names = new Set(body.map((l) => l.name));
    expect(names.size).toBe(LOCKS);
    expect(JSON.parse(lines[lines.length - 1]!)).toMatchObject({ locks: LOCKS, skipped: LOCKS, complete: true });
  }, 120_000);
});
