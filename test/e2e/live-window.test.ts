// The live locks page against the API for minutes of churn (#52): locks released, re-acquired under the same name and
// new ones taken, in and out of the window, while a page stays open in Chromium. Every so often the churn pauses and
// the page must show exactly what GET /api/locks lists for its window (or a "+N new" it can apply), with its "All N"
// chip saying the API's total; a foreign lock's force-release then shows in its lock page's history.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, type Lock } from '@/lib/lock';
import { startBrowserConsole, type BrowserConsole } from '../helpers/console-browser';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { delay } from '../helpers/requests';
import { writeTerraformLock, writeTerraformState } from '../helpers/writers';

const OPERATOR = 'operator@demo.lockboard';
const SOURCE = 'gs://churn/locks/';
const NAMES = Array.from({ length: 24 }, (_, i) => `locks/job-${String(i).padStart(2, '0')}`);
const CHURN_MS = Number(process.env.LOCKBOARD_CHURN_MS ?? 120_000);
const CHECK_EVERY_MS = 15_000;
/** How long a paused page gets to show a change: the source's poll (2 s) plus the stream's pace, with margin. */
const SETTLE_MS = 10_000;

let t: Target;
let c: BrowserConsole;
const held = new Map<string, Lock>();

beforeAll(async () => {
  t = await startTestEmulator({ buckets: ['churn', 'tf-churn'] });
  for (const name of NAMES.slice(0, 12)) held.set(name, await take(name));
  c = await startBrowserConsole({
    LOCKBOARD_SOURCES: `${SOURCE},gs://tf-churn/`,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
  });
}, 240_000);

afterAll(async () => {
  await Promise.allSettled([...held.values()].map((l) => l.release()));
  await c?.close();
  await t?.close();
});

function take(name: string): Promise<Lock> {
  return acquireLock({ storage: t.storage, bucket: 'churn', name, identity: `worker@${name}`, ttlMs: 600_000 });
}

/** One step of churn: release a held lock, or take a free name (often one just released: the same name again). */
async function churnStep(): Promise<void> {
  const name = NAMES[Math.floor(Math.random() * NAMES.length)]!;
  const lock = held.get(name);
  if (lock) {
    held.delete(name);
    await lock.release();
  } else held.set(name, await take(name));
}

async function apiWindow(context: BrowserContext): Promise<{ names: string[]; total: number }> {
  const res = await context.request.get(`${c.app.url}/api/locks?source=${encodeURIComponent(SOURCE)}`);
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { locks: { name: string }[]; total: number };
  return { names: body.locks.map((l) => l.name), total: body.total };
}

async function pageWindow(page: Page): Promise<{ names: string[]; total: string }> {
  // a "+N new · N changed" button is a change the page offers to apply: apply it, as an operator would
  const outside = page.getByTestId('outside-changes');
  if (await outside.isVisible()) await outside.click();
  const names = await page.locator('[data-lock]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-lock')!));
  const total = (await page.getByRole('button', { name: /^All / }).textContent()) ?? '';
  return { names, total: total.replace(/\D/g, '') };
}

/** Polls until the page shows the API's window and total; returns how long it took, or fails naming the difference. */
async function converge(page: Page, context: BrowserContext): Promise<number> {
  const started = Date.now();
  let last = '';
  while (Date.now() - started < SETTLE_MS) {
    const api = await apiWindow(context);
    const shown = await pageWindow(page);
    if (shown.names.join() === api.names.join() && shown.total === String(api.total)) return Date.now() - started;
    last = `page ${shown.names.length} rows (All ${shown.total}) vs API ${api.names.length} (total ${api.total}); missing ${api.names.filter((n) => !shown.names.includes(n)).join(', ') || 'none'}; extra ${shown.names.filter((n) => !api.names.includes(n)).join(', ') || 'none'}`;
    await delay(250);
  }
  throw new Error(`the live page did not show the API's window within ${SETTLE_MS} ms: ${last}`);
}

describe('the live locks page under minutes of churn', () => {
  it(
    'shows exactly what the API lists after every burst of releases and re-acquisitions, with a clean console',
    async () => {
      const context = await c.contextAs(OPERATOR, { width: 1400, height: 2600 }); // every row in view: no virtual gaps
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      await page.goto(`${c.app.url}/locks?source=${encodeURIComponent(SOURCE)}`, { waitUntil: 'networkidle' });
      await expect.poll(() => page.getByTestId('updated').textContent(), { timeout: 15_000 }).toMatch(/live/);
      const settled: number[] = [];
      const end = Date.now() + CHURN_MS;
      let steps = 0;
      while (Date.now() < end) {
        const burstEnd = Math.min(end, Date.now() + CHECK_EVERY_MS);
        while (Date.now() < burstEnd) {
          await churnStep();
          steps++;
          await delay(100 + Math.random() * 400);
        }
        settled.push(await converge(page, context));
        expect(await page.getByTestId('updated').textContent(), 'the live dot stays on').toMatch(/live/);
      }
      console.log(
        `live window: ${steps} churn steps over ${CHURN_MS / 1000} s; page matched the API after each of ${settled.length} pauses in ${settled.join(', ')} ms`,
      );
      expect(settled.length).toBeGreaterThanOrEqual(Math.floor(CHURN_MS / CHECK_EVERY_MS));
      expect(problems, problems.join('\n')).toEqual([]);
      await context.close();
    },
    CHURN_MS + 120_000,
  );

  it("shows a foreign lock's force-release in its own page's history", async () => {
    await writeTerraformState(t.storage, 'tf-churn', 'prod/default.tfstate');
    await writeTerraformLock(t.storage, 'tf-churn', 'prod/default.tfstate', 'ann@laptop');
    const name = 'prod/default.tflock'; // Terraform's gcs backend: <workspace>.tflock beside <workspace>.tfstate
    const context = await c.contextAs(OPERATOR);
    // released as an operator does, through the console (its trail, its source key), at the version it lists
    const listed = await context.request.get(`${c.app.url}/api/locks/${name}?bucket=tf-churn`);
    expect(listed.status()).toBe(200);
    const seen = (await listed.json()) as { version?: string; absent?: true };
    expect(seen.absent, 'the Terraform lock is listed').toBeUndefined();
    const version = seen.version!;
    const released = await context.request.post(`${c.app.url}/api/locks/release`, {
      headers: { origin: c.app.url },
      data: { name, bucket: 'tf-churn', version, reason: 'crashed apply' },
    });
    expect(released.status(), await released.text()).toBe(200);
    expect(((await released.json()) as { outcome: string }).outcome).toBe('released');
    const page = await context.newPage();
    await page.goto(`${c.app.url}/locks/${name}?bucket=tf-churn`, { waitUntil: 'networkidle' });
    const history = page.getByTestId('timeline');
    await expect.poll(() => history.textContent(), { timeout: 15_000 }).toMatch(/force-released/);
    expect(await history.textContent()).toMatch(/not recorded/);
    await context.close();
  });
});
