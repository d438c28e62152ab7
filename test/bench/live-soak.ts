// npm run bench -- live-soak: one locks page left open with the stream for LIVE_SOAK_MS (default 10 minutes) while
// holders come and go, through a console restart (the page must reconnect by itself) and the end of its session (the
// page must go to sign-in). Counts every browser console message, page error and failed request.
import { encode } from 'next-auth/jwt';
import { acquireLock, type Lock } from '@/lib/lock';
import { startConsole, type ConsoleProcess } from '@/lib/demo/console';
import { freePort, launchBrowser } from '../helpers/browser';
import { startTestEmulator } from '../helpers/gcs';
import { printTable, round, writeJson } from './report';

const SECRET = 'live-soak-secret-0123456789abcdef';
const USER = 'soak@example.com';

export async function benchLiveSoak() {
  const total = Number(process.env.LIVE_SOAK_MS ?? 600_000);
  const t = await startTestEmulator({ buckets: ['soak'] });
  const port = await freePort();
  const env = {
    LOCKBOARD_SOURCES: 'gs://soak/locks/',
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    NEXTAUTH_SECRET: SECRET,
    LOCKBOARD_VIEWERS: USER,
  };
  let app: ConsoleProcess = await startConsole(port, env);
  const browser = await launchBrowser();
  const context = await browser.newContext();
  // the session ends at 80 % of the run (next-auth's maxAge on the cookie's token)
  const token = await encode({
    token: { email: USER, sub: USER },
    secret: SECRET,
    maxAge: Math.round((total * 0.8) / 1000),
  });
  await context.addCookies([{ name: 'next-auth.session-token', value: token, url: app.url }]);
  const page = await context.newPage();
  const problems: { at: number; what: string }[] = [];
  const started = performance.now();
  const at = () => round((performance.now() - started) / 1000, 1);
  page.on('console', (m) => problems.push({ at: at(), what: `console ${m.type()}: ${m.text()}` }));
  page.on('pageerror', (e) => problems.push({ at: at(), what: `page error: ${e.message}` }));
  page.on('requestfailed', (r) => {
    const aborted = r.failure()?.errorText === 'net::ERR_ABORTED' && r.url().includes('/api/locks/stream');
    if (!aborted) problems.push({ at: at(), what: `request failed: ${r.url()} ${r.failure()?.errorText}` });
  });
  await page.goto(`${app.url}/locks`);
  const live = () =>
    page
      .getByTestId('updated')
      .textContent({ timeout: 1_000 })
      .catch(() => null);
  const holders: Lock[] = [];
  const events: Record<string, string | number>[] = [];
  let restarted = false;
  let backLiveS: number | string = 'n/a';
  for (let i = 0; performance.now() - started < total; i++) {
    // a holder comes every 10 s and goes 30 s later
    holders.push(await acquireLock({ storage: t.storage, bucket: 'soak', name: `locks/job-${i}`, ttlMs: 20_000 }));
    if (holders.length > 3) await holders.shift()!.release();
    if (!restarted && performance.now() - started > total * 0.4) {
      restarted = true;
      await app.stop();
      const down = performance.now();
      app = await startConsole(port, env);
      events.push({ event: 'console restarted', 'at s': at(), 'down ms': Math.round(performance.now() - down) });
      for (let k = 0; k < 60 && (await live()) !== 'live'; k++) await new Promise((r) => setTimeout(r, 500));
      backLiveS = (await live()) === 'live' ? at() : 'never';
      events.push({ event: 'page live again', 'at s': backLiveS, 'down ms': '' });
    }
    await new Promise((r) => setTimeout(r, 10_000));
  }
  const signedOut = new URL(page.url()).pathname === '/login';
  events.push({
    event: signedOut ? 'session ended: page at sign-in' : 'session ended: page NOT at sign-in',
    'at s': at(),
    'down ms': '',
  });
  await Promise.allSettled(holders.map((h) => h.release()));
  await browser.close();
  await app.stop();
  await t.close();
  printTable(`A locks page left open ${round(total / 60_000, 1)} min: restart and session end`, events);
  printTable(
    'Browser console messages, page errors and failed requests',
    problems.length
      ? problems.map((p) => ({ 'at s': p.at, what: p.what.slice(0, 140) }))
      : [{ 'at s': '-', what: 'none' }],
  );
  writeJson('live-soak', { minutes: total / 60_000, events, problems, signedOut, backLiveS });
}
