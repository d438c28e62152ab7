// What each demo account is offered, in Chromium at 1440 and 390 px (#62): the header links exactly the console pages
// the account may open (every page on disk asked: a link for each that answers 200, none for a 403); a healthy row's
// Release… is quiet and an expired one's red, for the operator and the releaser; "Release shown" counts and ticks only
// the expired lock (the releaser is never offered the healthy one, the operator finds it unticked); and the churn
// page (and a lock's history from that trail) names the Redis trail kept in memory only, not the one with the
// append-only file.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, type Lock } from '@/lib/lock';
import { lockHref } from '@/lib/console/queries';
import { DEMO_ACCOUNTS } from '@/lib/server/auth/demo-accounts';
import { ARTIFACTS } from '../helpers/browser';
import { startBrowserConsole, type BrowserConsole } from '../helpers/console-browser';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { freezeHolder } from '../helpers/lock';
import { startRedis, type TestRedis } from '../helpers/redis';

const BUCKET = 'lockboard-demo';
const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];
const CONSOLE = join(__dirname, '../../app/(console)');
const PAGES = readdirSync(CONSOLE, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(CONSOLE, d.name, 'page.tsx')))
  .map((d) => `/${d.name}`);

let t: Target;
let c: BrowserConsole;
let volatile: TestRedis;
let kept: TestRedis;
const held: Lock[] = [];
const redisSource = (r: TestRedis) => `redis://127.0.0.1:${r.port}/0?match=locks:*`;

beforeAll(async () => {
  t = await startTestEmulator({ buckets: [BUCKET] });
  [volatile, kept] = await Promise.all([startRedis(), startRedis(['--appendonly', 'yes'])]);
  await volatile.client.sendCommand(['SET', 'locks:nightly', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 'PX', '600000']);
  const on = (name: string, ttlMs: number) =>
    acquireLock({ storage: t.storage, bucket: BUCKET, name, identity: name, ttlMs, refreshIntervalMs: ttlMs / 4 });
  held.push(await on('locks/web', 60_000), await on('locks/stale', 2_000), await on('ci/build', 60_000));
  freezeHolder(held[1]!); // crashed: expired two seconds on
  c = await startBrowserConsole({
    LOCKBOARD_SOURCES: [`gs://${BUCKET}/locks/`, `gs://${BUCKET}/ci/`, redisSource(volatile), redisSource(kept)].join(),
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
  });
}, 900_000);

afterAll(async () => {
  await Promise.allSettled(held.map((l) => l.release()));
  await c?.close();
  await Promise.allSettled([volatile?.stop(), kept?.stop(), t?.close()]);
});

const shot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS}/roles-${name}.png`, fullPage: true });
const rowOf = (page: Page, name: string) => page.locator(`[data-lock="${name}"]`);
const releaseOf = (page: Page, name: string) =>
  page.getByRole('button', { name: `Force-release ${name}`, exact: true });
/** Whether a control is drawn red (its class or its text colour). */
const isRed = (page: Page, name: string) =>
  releaseOf(page, name).evaluate((el) => {
    const [r, g, b] = getComputedStyle(el).color.match(/\d+/g)!.map(Number);
    return /red/.test(el.className) || (r! > 150 && g! < 110 && b! < 110);
  });

describe.each(SIZES)('at $width px', (size) => {
  it.each(DEMO_ACCOUNTS.map((a) => a.email))(
    'links %s to exactly the pages it may open',
    async (email) => {
      const context = await c.contextAs(email, size);
      const page = await context.newPage();
      const opens: string[] = [];
      for (const path of PAGES) {
        const response = await page.goto(`${c.app.url}${path}`);
        expect([200, 403], `${email} ${path}`).toContain(response?.status());
        if (response?.status() === 200) opens.push(path);
      }
      await page.goto(`${c.app.url}/locks`);
      const links = await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(links.sort()).toEqual(opens.sort());
      expect(opens).toContain('/locks');
      if (email.startsWith('ci-team') || email.startsWith('viewer')) expect(opens).not.toContain('/webhooks');
      await context.close();
    },
    60_000,
  );

  it.each(['operator', 'releaser'])(
    'gives the %s a quiet release on the healthy row, a red one on the expired row, and counts only the expired',
    async (who) => {
      const context = await c.contextAs(`${who}@demo.lockboard`, size);
      const page = await context.newPage();
      await page.goto(`${c.app.url}/locks?source=${encodeURIComponent(`gs://${BUCKET}/locks/`)}`);
      await rowOf(page, 'locks/stale').and(page.locator('[data-health="expired"]')).waitFor({ timeout: 20_000 });
      await rowOf(page, 'locks/web').waitFor();
      expect(await isRed(page, 'locks/web')).toBe(false);
      expect(await releaseOf(page, 'locks/web').getAttribute('data-tone')).toBe('quiet');
      expect(await isRed(page, 'locks/stale')).toBe(true);
      const bulk = page.getByTestId('bulk-release');
      await expect.poll(() => bulk.textContent(), { timeout: 10_000 }).toBe('Release shown (1 expired)…');
      await shot(page, `${who}-${size.width}`);
      await bulk.click();
      const preview = page.getByTestId('bulk-preview');
      await preview.waitFor();
      const box = (name: string) => preview.getByRole('checkbox', { name: `Release ${name}`, exact: true });
      expect(await box('locks/stale').isChecked()).toBe(true);
      // the releaser may not release a healthy lock at all; the operator finds it listed, never ticked
      if (who === 'releaser') expect(await box('locks/web').count()).toBe(0);
      else expect(await box('locks/web').isChecked()).toBe(false);
      await shot(page, `${who}-bulk-${size.width}`);
      await context.close();
    },
    60_000,
  );

  it('names the Redis trail kept in memory only on the churn page, not the one with the append-only file', async () => {
    const context = await c.contextAs('operator@demo.lockboard', size);
    const page = await context.newPage();
    await page.goto(`${c.app.url}/churn`);
    const note = page.getByTestId('churn-memory-only');
    await note.waitFor({ timeout: 20_000 });
    const text = (await note.textContent()) ?? '';
    expect(text).toContain(redisSource(volatile));
    expect(text).toMatch(/audit trail in memory only \(Redis\)/);
    expect(text).toMatch(/a restart of the server loses it/);
    expect(text).not.toContain(redisSource(kept));
    await shot(page, `churn-memory-only-${size.width}`);
    // a lock's history from that trail says so too
    await page.goto(`${c.app.url}${lockHref('locks:nightly', `redis://127.0.0.1:${volatile.port}/0`)}`);
    await page.getByTestId('churn-memory-only').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('churn-memory-only').textContent()).toMatch(/a restart of the server loses it/);
    await context.close();
  }, 60_000);
});
