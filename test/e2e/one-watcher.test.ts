// One watcher, one index and one connection per source per console process, whichever part of the console asks.
// Next.js bundles server code once per layer (the pages' server rendering, the route handlers), each with its own copy
// of every module: the locks page kept a second watcher, index and Redis connection beside the API's, so a console
// listed every source twice and held its index twice (1.35 GB instead of 0.72 GB at a million locks). Counted here by
// the console's own connections to a real Redis, with keyspace notifications on (one more for the feed).
import { encode } from 'next-auth/jwt';
import { afterAll, describe, expect, it } from 'vitest';
import { buildConsole, needsBuild, startConsole, type ConsoleProcess } from '@/lib/demo/console';
import { freePort } from '../helpers/browser';
import { startRedis, type TestRedis } from '../helpers/redis';
import { fillRedis } from '../helpers/scale';

const SECRET = 'one-watcher-secret-0123456789abcdef';
let r: TestRedis | undefined;
let app: ConsoleProcess | undefined;
afterAll(async () => {
  await app?.stop();
  await r?.stop();
});

/** The console's connections: every client but the test's own. */
async function consoleClients(): Promise<number> {
  const list = String(await r!.client.sendCommand(['CLIENT', 'LIST']));
  const mine = String(await r!.client.sendCommand(['CLIENT', 'ID']));
  return list.split('\n').filter((l) => l.startsWith('id=') && !l.startsWith(`id=${mine} `)).length;
}

describe('a console over one Redis source', () => {
  it('lists it with one watcher and one connection, whether the API or the locks page asks', async () => {
    r = await startRedis(['--notify-keyspace-events', 'Kg$hx']);
    await fillRedis(r.client as never, 500);
    if (needsBuild()) buildConsole();
    const source = `redis://127.0.0.1:${r.port}/0`;
    app = await startConsole(await freePort(), {
      LOCKBOARD_DEMO: '1',
      NEXTAUTH_SECRET: SECRET,
      LOCKBOARD_SOURCES: source,
    });
    const token = await encode({
      token: { email: 'viewer@demo.lockboard', sub: 'viewer@demo.lockboard' },
      secret: SECRET,
    });
    const headers = { cookie: `next-auth.session-token=${token}`, accept: 'application/json' };
    const api = await fetch(`${app.url}/api/locks?source=${encodeURIComponent(source)}`, { headers });
    expect(((await api.json()) as { total: number }).total).toBe(500);
    await new Promise((d) => setTimeout(d, 1_000));
    const byApi = await consoleClients();
    const page = await fetch(`${app.url}/locks`, { headers: { cookie: headers.cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('lock:0');
    await new Promise((d) => setTimeout(d, 2_000)); // a second watcher would have connected and listed by now
    expect(await consoleClients()).toBe(byApi);
  }, 240_000);
});
