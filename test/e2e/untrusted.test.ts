// Two console replicas on one Redis source (#39): a session signed out in Chromium on one replica is refused by the
// other (the sign-out is shared through the source's trail) and its open stream there ends, and a 64 MB non-lock value beside the locks keeps the
// console's own memory flat with a live locks page open, and the CLI's `ls` too.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { encode } from 'next-auth/jwt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startConsole, type ConsoleProcess } from '@/lib/demo/console';
import { freePort } from '../helpers/browser';
import { runCli } from '../helpers/cli';
import { startBrowserConsole, type BrowserConsole } from '../helpers/console-browser';
import { startRedis, type TestRedis } from '../helpers/redis';

const SECRET = 'e2e-untrusted-secret-0123456789abcdef';
const OPERATOR = 'operator@demo.lockboard';
const MB = 2 ** 20;
let r: TestRedis;
let a: BrowserConsole;
let b: ConsoleProcess;
let source: string;

beforeAll(async () => {
  r = await startRedis();
  source = `redis://127.0.0.1:${r.port}/0?match=locks:*`;
  const body = { format: 'lockboard/1', token: '7', identity: 'runner-1', ttl_ms: '600000' };
  await r.client.sendCommand(['SET', 'locks:good', JSON.stringify({ ...body, acquired_ms: String(Date.now()) })]);
  const env = {
    LOCKBOARD_SOURCES: source,
    NEXTAUTH_SECRET: SECRET,
    LOCKBOARD_AUDIT_KEY: 'e2e-audit-key-0123456789abcdef0123456789',
  };
  a = await startBrowserConsole(env);
  b = await startConsole(await freePort(), { LOCKBOARD_DEMO: '1', ...env });
}, 600_000);

afterAll(async () => {
  await b?.stop();
  await a?.close();
  await r?.stop();
});

const list = (url: string, cookie: string) => fetch(`${url}/api/locks?source=all`, { headers: { cookie } });

it('refuses a session on every replica once it signed out on one', async () => {
  const token = await encode({
    token: { email: OPERATOR, name: OPERATOR, sub: OPERATOR, sid: randomUUID(), authAt: Date.now() },
    secret: SECRET,
  });
  const cookie = `next-auth.session-token=${token}`;
  expect((await list(b.url, cookie)).status).toBe(200);
  // a live stream opened on the other replica before the sign-out
  const stream = await fetch(`${b.url}/api/locks/stream?source=all`, { headers: { cookie } });
  expect(stream.status).toBe(200);
  const reader = stream.body!.getReader();
  const ended = (async () => {
    while (!(await reader.read()).done);
    return true;
  })().catch(() => true);
  const context = await a.browser.newContext();
  await context.addCookies([{ name: 'next-auth.session-token', value: token, url: a.app.url }]);
  const page = await context.newPage();
  await page.goto(`${a.app.url}/locks`);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/login/, { timeout: 30_000 });
  await context.close();
  expect((await list(a.app.url, cookie)).status).toBe(401);
  await new Promise((done) => setTimeout(done, 2_100)); // each replica reads the shared sign-outs every 2 s
  const other = await list(b.url, cookie);
  expect(other.status).toBe(401);
  expect(((await other.json()) as { error: { message: string } }).error.message).toMatch(/signed out/);
  // the stream ends on its next tick (every 15 s), and its reconnect is refused like any request
  const closed = await Promise.race([ended, new Promise<false>((done) => setTimeout(() => done(false), 20_000))]);
  if (!closed) await reader.cancel();
  expect(closed, 'the stream of a signed-out session was still open on the other replica 20 s later').toBe(true);
}, 60_000);

/** The process's resident memory now (VmRSS), from /proc. */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const netOut = async () =>
  Number(/total_net_output_bytes:(\d+)/.exec(String(await r.client.sendCommand(['INFO', 'stats'])))![1]);
const REPORT = "process.on('exit',()=>process.stderr.write('maxrss='+process.resourceUsage().maxRSS+'\\n'))";

async function cliPeakRss(): Promise<number> {
  const ls = await runCli(['ls', source], {
    NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(REPORT)}`,
  });
  expect(ls.code, ls.stderr).toBe(0);
  expect(ls.stdout).toContain('locks:good');
  return Number(/maxrss=(\d+)/.exec(ls.stderr)![1]) * 1024;
}

it('keeps the console’s and the CLI’s memory flat beside a 64 MB value, with a live locks page open', async () => {
  const cliWithout = await cliPeakRss();
  const context = await a.contextAs('viewer@demo.lockboard');
  const page = await context.newPage();
  await page.goto(`${a.app.url}/locks`);
  await page.waitForFunction(() => document.querySelector('[data-testid="updated"]')?.textContent === 'live', null, {
    timeout: 30_000,
  });
  await page.getByText('locks:good').first().waitFor();
  const pid = a.app.child.pid!;
  const before = rssOf(pid);
  const sentBefore = await netOut();
  // a 64 MB value under the source's pattern, made by Redis itself, while the page is open
  await r.client.sendCommand(['SETRANGE', 'locks:huge', String(64 * MB - 1), 'x']);
  let peak = before;
  for (let i = 0; i < 20; i++) {
    await new Promise((done) => setTimeout(done, 500));
    peak = Math.max(peak, rssOf(pid));
  }
  const sent = (await netOut()) - sentBefore;
  const cliWith = await cliPeakRss();
  await context.close();
  console.log(
    `console RSS ${(before / MB).toFixed(1)} MB → peak ${(peak / MB).toFixed(1)} MB over 10 s with the 64 MB value; ` +
      `Redis sent ${(sent / 1024).toFixed(0)} KiB; lockboard ls peak RSS ${(cliWithout / MB).toFixed(1)} MB without, ` +
      `${(cliWith / MB).toFixed(1)} MB with it`,
  );
  expect(peak - before).toBeLessThan(40 * MB);
  expect(sent).toBeLessThan(4 * MB);
  expect(cliWith - cliWithout).toBeLessThan(40 * MB);
}, 120_000);
