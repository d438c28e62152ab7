// The first screens, as each demo account sees them in Chromium at 1440 and 390 px: an operator lands on All sources,
// a bulk release over healthy locks is a quiet button (never red), a viewer on /webhooks is told the role it needs,
// a scoped account's counts and rows agree on the server's first render and after, and a lock page's back link keeps
// the lock's source once it is released.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, forceReleaseLock, type Lock } from '@/lib/lock';
import { ARTIFACTS } from '../helpers/browser';
import { startBrowserConsole, type BrowserConsole } from '../helpers/console-browser';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { freezeHolder } from '../helpers/lock';

const BUCKET = 'lockboard-demo';
const PLATFORM = 'platform-state';
const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];
let t: Target;
let c: BrowserConsole;
const held: Lock[] = [];

beforeAll(async () => {
  t = await startTestEmulator({ buckets: [BUCKET, PLATFORM] });
  const on = (bucket: string, name: string, identity: string) =>
    acquireLock({ storage: t.storage, bucket, name, identity, ttlMs: 60_000, refreshIntervalMs: 5_000 });
  held.push(await on(BUCKET, 'locks/web', 'web-1'), await on(BUCKET, 'ci/build', 'runner-7'));
  held.push(await on(PLATFORM, 'prod/network', 'apply-3'));
  c = await startBrowserConsole({
    LOCKBOARD_SOURCES: `gs://${BUCKET}/locks/,gs://${BUCKET}/ci/,gs://${PLATFORM}/`,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
  });
}, 900_000);

afterAll(async () => {
  await Promise.allSettled(held.map((l) => l.release()));
  await c?.close();
  await t?.close();
});

const shot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS}/first-${name}.png`, fullPage: true });

/** The source picker's value (its label is the first to start with "Source"; "Sort by" names a Source column). */
const sourceShown = (page: Page) =>
  page
    .locator('label', { hasText: /^Source/ })
    .locator('select')
    .inputValue();

/** The "All N" chip's count and the rows drawn. */
// Both read in one task of the page, so a render between two reads cannot pair old counts with new rows.
async function countsAndRows(page: Page): Promise<{ all: number; rows: number }> {
  return page.evaluate(() => {
    const chip = document.querySelector('[role="group"][aria-label="Filter by health"] button');
    return {
      all: Number((chip?.textContent ?? '').replace(/\D/g, '')),
      rows: document.querySelectorAll('[data-lock]').length,
    };
  });
}

describe.each(SIZES)('at $width px', (size) => {
  it.each(['operator', 'releaser'])(
    'lands the %s on All sources, its bulk release quiet',
    async (who) => {
      const context = await c.contextAs(`${who}@demo.lockboard`, size);
      const page = await context.newPage();
      await page.goto(`${c.app.url}/locks`, { waitUntil: 'networkidle' });
      expect(await sourceShown(page)).toBe('all');
      await page.locator('[data-lock="ci/build"]').waitFor();
      expect(await countsAndRows(page)).toEqual({ all: 3, rows: 3 });
      const bulk = page.getByTestId('bulk-release');
      // three healthy locks: nothing it would tick, so it counts none (never the three healthy ones)
      expect(await bulk.textContent()).toBe('Release shown (0 expired)…');
      // healthy locks: a secondary button, not the red of a destructive action
      expect(await bulk.getAttribute('class')).not.toMatch(/red/);
      const colour = await bulk.evaluate((el) => getComputedStyle(el).color);
      expect(colour).not.toMatch(/^rgb\((1[5-9]\d|2\d\d), (\d|[1-6]\d), (\d|[1-6]\d)\)$/); // no red text either
      await shot(page, `${who}-${size.width}`);
      await context.close();
    },
    60_000,
  );

  it('lands the viewer on All sources, with no release control', async () => {
    const context = await c.contextAs('viewer@demo.lockboard', size);
    const page = await context.newPage();
    await page.goto(`${c.app.url}/locks`, { waitUntil: 'networkidle' });
    expect(await sourceShown(page)).toBe('all');
    await page.locator('[data-lock="ci/build"]').waitFor();
    expect(await countsAndRows(page)).toEqual({ all: 3, rows: 3 });
    expect(await page.getByTestId('bulk-release').count()).toBe(0);
    await shot(page, `viewer-${size.width}`);
    await context.close();
  }, 60_000);

  it('tells a viewer on /webhooks the role it needs', async () => {
    const context = await c.contextAs('viewer@demo.lockboard', size);
    const page = await context.newPage();
    const response = await page.goto(`${c.app.url}/webhooks`);
    expect(response?.status()).toBe(403);
    const reason = await page.getByTestId('forbidden-reason').textContent();
    expect(reason).toMatch(/The Webhooks page needs the operator role over every lock \("\*"\)/);
    expect(reason).toMatch(/viewer@demo\.lockboard is a viewer/);
    await shot(page, `viewer-webhooks-${size.width}`);
    await context.close();
  }, 60_000);

  it("agrees on the scoped account's counts and rows, on the server's render and after", async () => {
    // the server's HTML alone (no script): what a first paint shows
    const still = await c.contextAs('ci-team@demo.lockboard', size);
    const first = await still.newPage();
    await first.route('**/*.js', (route) => route.abort());
    await first.goto(`${c.app.url}/locks`);
    expect(await countsAndRows(first)).toEqual({ all: 1, rows: 1 });
    await still.close();
    const context = await c.contextAs('ci-team@demo.lockboard', size);
    const page = await context.newPage();
    await page.goto(`${c.app.url}/locks`, { waitUntil: 'networkidle' });
    expect(await sourceShown(page)).toBe(`gs://${BUCKET}/ci/`);
    expect(await countsAndRows(page)).toEqual({ all: 1, rows: 1 });
    expect(await page.getByText('No lock matches this filter').count()).toBe(0);
    await shot(page, `ci-team-${size.width}`);
    // the webhooks need a grant on every lock: named, not "on no list"
    const response = await page.goto(`${c.app.url}/webhooks`);
    expect(response?.status()).toBe(403);
    expect(await page.getByTestId('forbidden-reason').textContent()).toMatch(/operator over some locks only/);
    await context.close();
  }, 60_000);
});

describe("a lock page's back link", () => {
  it('keeps the lock source once the lock is released', async () => {
    const lock = held.find((l) => l.name === 'prod/network')!;
    const context = await c.contextAs('operator@demo.lockboard', SIZES[0]);
    const page = await context.newPage();
    await page.goto(`${c.app.url}/locks?source=${encodeURIComponent(`gs://${BUCKET}/locks/`)}`);
    await page.goto(`${c.app.url}/locks/prod/network?bucket=${PLATFORM}`, { waitUntil: 'networkidle' });
    const back = page.getByRole('link', { name: /^← / });
    expect(await back.getAttribute('href')).toBe(`/locks?source=${encodeURIComponent(`gs://${PLATFORM}/`)}`);
    freezeHolder(lock);
    await forceReleaseLock({
      storage: t.storage,
      bucket: PLATFORM,
      name: 'prod/network',
      generation: lock.generation,
      audit: { operator: 'e2e', reason: 'back link' },
    });
    await page.getByText('This lock is free').waitFor({ timeout: 15_000 });
    expect(await back.textContent()).toBe(`← Locks of gs://${PLATFORM}/`);
    expect(await back.getAttribute('href')).toBe(`/locks?source=${encodeURIComponent(`gs://${PLATFORM}/`)}`);
    await shot(page, 'back-link-after-release');
    await context.close();
  }, 60_000);
});

describe('counts beside a changing window', () => {
  it("keep in step with the scoped account's rows when its lock is released (never All 1 over no rows)", async () => {
    const lock = held.find((l) => l.name === 'ci/build')!;
    const context = await c.contextAs('ci-team@demo.lockboard', SIZES[0]);
    const page = await context.newPage();
    await page.goto(`${c.app.url}/locks`, { waitUntil: 'networkidle' });
    await page.getByTestId('updated').filter({ hasText: 'live' }).waitFor();
    expect(await countsAndRows(page)).toEqual({ all: 1, rows: 1 });
    freezeHolder(lock);
    await forceReleaseLock({
      storage: t.storage,
      bucket: BUCKET,
      name: 'ci/build',
      generation: lock.generation,
      audit: { operator: 'e2e', reason: 'counts in step' },
    });
    // sampled while the change arrives and before the server's coalesced counts (at most a second later)
    const seen: string[] = [];
    for (let i = 0; i < 30; i++) {
      const { all, rows } = await countsAndRows(page);
      seen.push(`${all}/${rows}`);
      await page.waitForTimeout(50);
    }
    expect(seen.filter((s) => s !== '1/1' && s !== '0/0')).toEqual([]);
    expect(seen[seen.length - 1]).toBe('0/0');
    await context.close();
  }, 60_000);
});
