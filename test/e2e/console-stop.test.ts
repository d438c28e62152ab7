// A console told to stop (SIGTERM, as a deploy does) with a live locks page open: its streams end, a browser that
// reconnects meanwhile on a kept-alive socket is answered and the socket closed, so the process exits within
// seconds. Before, the page's reconnects every second kept the server's graceful close waiting as long as the tab
// stayed open.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { startBrowserConsole, type BrowserConsole } from '../helpers/console-browser';

let emulator: Emulator;
let c: BrowserConsole;

beforeAll(async () => {
  emulator = await startEmulator({ buckets: ['ci-locks'] });
  c = await startBrowserConsole({ LOCKBOARD_SOURCES: 'gs://ci-locks/locks/', LOCKBOARD_GCS_ENDPOINT: emulator.url });
}, 180_000);

afterAll(async () => {
  c?.app.child.kill('SIGKILL'); // only if the test failed with it still running
  await c?.close().catch(() => undefined);
  await emulator?.close();
});

it('exits within seconds of SIGTERM while a live page keeps reconnecting', async () => {
  const context = await c.contextAs('viewer@demo.lockboard');
  const page = await context.newPage();
  await page.goto(`${c.app.url}/locks`);
  await page.waitForFunction(() => document.querySelector('[data-testid="updated"]')?.textContent === 'live', null, {
    timeout: 30_000,
  });
  const reconnects: number[] = [];
  page.on('request', (r) => r.url().includes('/api/locks/stream') && reconnects.push(Date.now()));
  const started = Date.now();
  const exited = await Promise.race([
    c.app.stop().then(() => true),
    new Promise<false>((r) => setTimeout(() => r(false), 10_000)),
  ]);
  expect(exited, 'the console was still running 10 s after SIGTERM with the page open').toBe(true);
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(reconnects.length).toBeLessThanOrEqual(2); // at most one reconnect reached it while it was stopping
  await context.close();
}, 60_000);
