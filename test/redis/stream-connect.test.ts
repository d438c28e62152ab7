// The stream's first message over a Redis source of judged redis-py locks (#63: 131 KB on connect at a million with
// verdicts, the budget 100 KB): the window of 100 rows and the counts, each row with its verdict and sentence (its
// figures of that moment) and no evidence (the lock page reads the whole lock), under 100 KB whatever the source holds:
// 75 KB here, with 5 000 locks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRoutes, SECRET, type Routes } from '../helpers/routes';
import { startRedis, type TestRedis } from '../helpers/redis';
import { fillRedis } from '../helpers/scale';
import { openStream } from '../helpers/stream';

const VIEWER = 'viewer@example.com';
const LOCKS = 5_000;
let r: TestRedis;
let routes: Routes;

beforeAll(async () => {
  r = await startRedis();
  await fillRedis(r.client as never, LOCKS);
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: `redis://127.0.0.1:${r.port}/0?match=lock:*`,
    LOCKBOARD_VIEWERS: VIEWER,
    NEXTAUTH_SECRET: SECRET,
  });
  for (const v of ['LOCKBOARD_BUCKET', 'LOCKBOARD_PREFIXES', 'LOCKBOARD_OPERATORS', 'LOCKBOARD_ACCESS_FILE'])
    delete process.env[v];
  routes = await importRoutes();
}, 60_000);

afterAll(() => r?.stop());

type Row = { name: string; verdict?: string; sentence?: string; evidence?: unknown };

describe("the stream's first message over judged Redis locks", () => {
  it('carries the window of 100 with each verdict and sentence, no evidence, in under 100 KB', async () => {
    const s = await openStream(routes.stream.GET, VIEWER, { path: '/api/locks/stream?source=all&limit=100' });
    try {
      let snapshot = await s.next('snapshot', 30_000);
      while (snapshot.complete !== true) snapshot = await s.next('snapshot', 30_000);
      const rows = snapshot.locks as Row[];
      expect(rows).toHaveLength(100);
      expect(snapshot.total).toBe(LOCKS);
      for (const row of rows) {
        expect(row.verdict).toBe('unknown');
        expect(row.sentence).toMatch(/^Unknown: seen once: its TTL \(\d+ s left\)/);
        expect(row.evidence).toBeUndefined();
      }
      const bytes = Buffer.byteLength(JSON.stringify(snapshot));
      expect(bytes, `${bytes} bytes`).toBeLessThan(100_000);
    } finally {
      await s.close();
    }
  }, 90_000);
});
