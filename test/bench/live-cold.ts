// The live benchmark's cold first screen: the 10 000-object mixed prefixes (GCS, S3) opened in Chromium on a console
// process started for the round (nothing cached, as after a deploy), several rounds: navigation → first row, and
// → every row read; against the complete JSON listing the page used to wait for (on the other, also cold, console).
import { startConsole } from '@/lib/demo/console';
import { freePort } from '../helpers/browser';
import type { LiveWorld } from './live-setup';
import { quantile, round } from './report';

const ROUNDS = Number(process.env.LIVE_COLD_ROUNDS ?? 3);

async function firstScreen(w: LiveWorld, url: string, source: string) {
  const context = await w.browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addCookies([{ name: 'next-auth.session-token', value: (await w.cookie()).split('=')[1]!, url }]);
  const page = await context.newPage();
  const started = performance.now();
  await page.goto(`${url}/locks?source=${encodeURIComponent(source)}`);
  await page.locator('[data-lock]').first().waitFor({ timeout: 60_000 });
  const first = performance.now() - started;
  const pending = await page
    .getByTestId('pending-count')
    .textContent({ timeout: 1_000 })
    .catch(() => '');
  await page.waitForFunction(() => !document.querySelector('[data-testid="pending-count"]'), null, {
    timeout: 120_000,
  });
  const all = performance.now() - started;
  await context.close();
  return { first, all, pending: Number(pending?.match(/\d+/)?.[0] ?? 0) };
}

export async function coldScreens(w: LiveWorld, objects: number) {
  const runs = new Map<string, Awaited<ReturnType<typeof firstScreen>>[]>();
  for (let round = 0; round < ROUNDS; round++) {
    const fresh = await startConsole(await freePort(), w.env);
    try {
      for (const [store, source] of Object.entries(w.cold))
        runs.set(store, [...(runs.get(store) ?? []), await firstScreen(w, fresh.url, source)]);
    } finally {
      await fresh.stop();
    }
  }
  const rows = [];
  for (const [store, source] of Object.entries(w.cold)) {
    const started = performance.now();
    const res = await fetch(`${w.consoles[1].url}/api/locks?source=${encodeURIComponent(source)}`, {
      headers: { cookie: await w.cookie() },
    });
    const complete = (await res.json()) as { locks: unknown[] };
    const completeMs = performance.now() - started;
    const mine = runs.get(store)!;
    const first = mine.map((r) => r.first);
    rows.push({
      store,
      objects,
      [`first screen ms (median of ${ROUNDS})`]: round(quantile(first, 0.5)),
      'first screen ms (max)': round(Math.max(...first)),
      'first screen runs': first.map((n) => Math.round(n)).join(' '),
      'pending at first paint': Math.round(
        quantile(
          mine.map((r) => r.pending),
          0.5,
        ),
      ),
      'every row read ms (median)': round(
        quantile(
          mine.map((r) => r.all),
          0.5,
        ),
      ),
      'complete listing (before) ms': round(completeMs),
      locks: complete.locks.length,
    });
  }
  return rows;
}
