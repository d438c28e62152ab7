// Lists on a phone, by every path a person arrives: a hard load at 390 px, a reload, a shared link, and a window
// narrowed and widened while the page stays open. Every row's drawn box (the row and everything inside it) is read,
// and any two that overlap fail the test, so a card taller than its slot in the virtual list is caught.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, withLock, type Lock } from '@/lib/lock';
import { ARTIFACTS } from '../helpers/browser';
import { startBrowserConsole, type BrowserConsole } from '../helpers/console-browser';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { delay } from '../helpers/requests';

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1400, height: 900 };
let t: Target;
let c: BrowserConsole;
const held: Lock[] = [];

beforeAll(async () => {
  t = await startTestEmulator();
  const base = { storage: t.storage, bucket: t.bucket, ttlMs: 600_000 };
  // Short and long names and owners: a long one wraps on a card and makes it taller than the others
  for (let i = 0; i < 24; i++) {
    const long = i % 5 === 0;
    held.push(
      await acquireLock({
        ...base,
        name: long ? `locks/team-${i}/a-very-long-pipeline-name-that-wraps-on-a-phone-${i}` : `locks/job-${i}`,
        identity: long ? `deploy-runner-${i}@ci-builders.platform.example.internal (pid ${1000 + i})` : `w-${i}`,
      }),
    );
  }
  for (let i = 0; i < 6; i++)
    await withLock({ ...base, name: 'locks/job-0-history', identity: `h-${i}` }, async () => {});
  c = await startBrowserConsole({
    LOCKBOARD_SOURCES: `gs://${t.bucket}/locks/`,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
  });
}, 180_000);

afterAll(async () => {
  await Promise.allSettled(held.map((l) => l.release()));
  await c?.close();
  await t?.close();
});

const contextAs = (viewport: { width: number; height: number }): Promise<BrowserContext> =>
  c.contextAs('operator@demo.lockboard', viewport);

/** Pairs of rows (by the union of their own box and every box inside them) that overlap on the page. */
function overlaps(page: Page, rowSelector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const drawn = [...document.querySelectorAll(selector)].map((row) => {
      const boxes = [row, ...row.querySelectorAll('*')].map((e) => e.getBoundingClientRect()).filter((b) => b.height);
      return {
        label: row.getAttribute('data-lock') ?? row.textContent?.slice(0, 40) ?? '?',
        top: Math.min(...boxes.map((b) => b.top)),
        bottom: Math.max(...boxes.map((b) => b.bottom)),
      };
    });
    drawn.sort((a, b) => a.top - b.top);
    const found: string[] = [];
    for (let i = 1; i < drawn.length; i++) {
      const [above, below] = [drawn[i - 1]!, drawn[i]!];
      // a tenth of a pixel for floating-point positions; a row measured short by a rounding shows
      if (above.bottom > below.top + 0.1)
        found.push(
          `${above.label} [${above.top}–${above.bottom}] overlaps ${below.label} [${below.top}–${below.bottom}]`,
        );
    }
    return found;
  }, rowSelector);
}

/** Waits for the list to settle (a few frames), then fails on any overlap that is still there after 3 s. */
async function expectNoOverlap(page: Page, rowSelector: string, path: string): Promise<void> {
  expect(await page.locator(rowSelector).count(), `rows drawn: ${path}`).toBeGreaterThan(1);
  let found = await overlaps(page, rowSelector);
  for (let i = 0; found.length && i < 30; i++) found = await delay(100).then(() => overlaps(page, rowSelector));
  if (found.length) await page.screenshot({ path: `${ARTIFACTS}/overlap-${path.replace(/\W+/g, '-')}.png` });
  expect(found, path).toEqual([]);
}

const CARDS = '[data-testid="lock-rows"] [data-lock]';

async function expectCardsApart(page: Page, path: string): Promise<void> {
  // the cards are in place once the phone's sort selector replaced the wide header
  await page.getByText('Sort by').waitFor();
  await expectNoOverlap(page, CARDS, `${path} (top)`);
  // and further down the list, where rows were first drawn with estimated sizes
  await page.getByTestId('lock-rows').evaluate((e) => e.scrollTo(0, e.scrollHeight));
  await expectNoOverlap(page, CARDS, `${path} (bottom)`);
}

/** Release buttons of the drawn rows outside the table's visible box or the window, and the page's sideways overflow. */
function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const table = document.querySelector('[role="table"]')!.getBoundingClientRect();
    for (const b of document.querySelectorAll('[data-testid="lock-rows"] button')) {
      const r = b.getBoundingClientRect();
      if (r.right > Math.min(table.right, window.innerWidth) + 0.5 || r.left < table.left - 0.5)
        found.push(`${b.getAttribute('aria-label')} [${r.left}–${r.right}] outside [${table.left}–${table.right}]`);
    }
    const page = document.scrollingElement!;
    if (page.scrollWidth > window.innerWidth + 1) found.push(`the page scrolls sideways: ${page.scrollWidth} px`);
    return found;
  });
}

describe('the locks list fits every screen', () => {
  it('at 360, 390, 768, 1024, 1440 and 1920 px: rows apart, every Release button in view', async () => {
    for (const width of [360, 390, 768, 1024, 1440, 1920]) {
      const context = await contextAs({ width, height: 900 });
      const page = await context.newPage();
      await page.goto(`${c.app.url}/locks`, { waitUntil: 'networkidle' });
      await page.getByTestId('lock-rows').locator('[data-lock]').first().waitFor();
      await expectNoOverlap(page, CARDS, `${width} px`);
      const cut = await cutOff(page);
      if (cut.length) await page.screenshot({ path: `${ARTIFACTS}/cut-off-${width}.png` });
      expect(cut, `${width} px`).toEqual([]);
      await context.close();
    }
  }, 120_000);
});

describe('lock cards at 390 px never overlap', () => {
  it('on a hard load, a reload and a shared link', async () => {
    const context = await contextAs(PHONE);
    const page = await context.newPage();
    await page.goto(`${c.app.url}/locks`, { waitUntil: 'networkidle' });
    await expectCardsApart(page, 'hard load');
    await page.reload({ waitUntil: 'networkidle' });
    await expectCardsApart(page, 'reload');
    const shared = await context.newPage();
    await shared.goto(`${c.app.url}/locks?sort=owner&dir=desc`, { waitUntil: 'networkidle' });
    await expectCardsApart(shared, 'shared link');
    await context.close();
  }, 60_000);

  it('when the window is narrowed and widened while the page stays open', async () => {
    const context = await contextAs(WIDE);
    const page = await context.newPage();
    await page.goto(`${c.app.url}/locks`, { waitUntil: 'networkidle' });
    await expectNoOverlap(page, CARDS, 'wide');
    for (const [size, label] of [
      [PHONE, 'narrowed'],
      [WIDE, 'widened'],
      [PHONE, 'narrowed again'],
      [WIDE, 'widened again'],
      [PHONE, 'narrowed a third time'],
    ] as const) {
      await page.setViewportSize(size);
      if (size === PHONE) await expectCardsApart(page, label);
      else {
        await page.getByRole('columnheader').first().waitFor();
        await expectNoOverlap(page, CARDS, label);
      }
    }
    await page.screenshot({ path: `${ARTIFACTS}/locks-390-resized.png` });
    await context.close();
  }, 60_000);

  it('on the lock history and churn lists', async () => {
    const context = await contextAs(PHONE);
    const page = await context.newPage();
    await page.goto(`${c.app.url}/locks/locks/job-0-history`, { waitUntil: 'networkidle' });
    await page.getByTestId('timeline').waitFor();
    await expectNoOverlap(page, '[data-testid="timeline"] tbody tr', 'history');
    await page.goto(`${c.app.url}/churn`, { waitUntil: 'networkidle' });
    const lists = page.locator('[data-testid="churn-list"]');
    await lists.first().waitFor();
    const ids = await lists.evaluateAll((ls) => ls.map((l) => l.getAttribute('data-list')));
    let checked = 0;
    for (const id of ids) {
      const rows = `[data-list="${id}"] li, [data-list="${id}"] tbody tr`;
      if ((await page.locator(rows).count()) < 2) continue; // one row cannot overlap another
      await expectNoOverlap(page, rows, `churn ${id}`);
      checked++;
    }
    expect(checked, `churn lists with rows: ${ids.join(', ')}`).toBeGreaterThan(1);
    await context.close();
  }, 60_000);
});
