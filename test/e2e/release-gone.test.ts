// The verdict on the locks list, in Chromium, on a lock directory held by real Debian python3 processes: the verdict
// chips' counts equal what `/api/locks?verdict=` matches and move live; a chip filters the list through the address;
// "Release all gone" releases the locks whose holders died, skips (and names) one whose file a live process opened
// between the dialog's listing and the release, and, for a releaser at 390 px, skips what their grants do not cover.
// A viewer never sees it. The browser console stays clean.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFits, pageProblems } from '../helpers/page-checks';
import { killAndWait, MACHINE_LOCK, need, PYTHON, startHolder, stopAll, tempDir } from '../files/tools';
import { ARTIFACTS } from '../helpers/browser';
import { startBrowserConsole, type BrowserConsole } from '../helpers/console-browser';

const OPERATOR = 'operator@demo.lockboard';
const VIEWER = 'viewer@demo.lockboard';
const RELEASER = 'releaser@demo.lockboard'; // sees every lock, may release g1.lock only
const VERDICTS = ['gone', 'stalled', 'alive', 'unknown'] as const;
/** A process that opens a lock file and keeps it open: the file's holder, alive, without touching its bytes. */
const OPENER = `import sys, time; f = open(sys.argv[1], 'rb'); print(1, flush=True); time.sleep(120)`;

let dir: string;
let access: string;
let c: BrowserConsole;

beforeAll(async () => {
  need(PYTHON, 'apt-get install python3');
  dir = tempDir();
  for (const name of ['g1', 'g2', 'g3', 'revived'])
    await killAndWait(await startHolder(PYTHON, ['-c', MACHINE_LOCK, name, dir])); // SIGKILL: the file stays
  await startHolder(PYTHON, ['-c', MACHINE_LOCK, 'live', dir]);
  fs.writeFileSync(path.join(dir, 'far.lock'), '4711\nbuild-host-7\n'); // held on another host: unknown
  access = `${dir}-access.yaml`;
  fs.writeFileSync(
    access,
    `grants:
  - who: [${OPERATOR}]
    role: operator
    locks: ['*']
  - who: [${VIEWER}, ${RELEASER}]
    role: viewer
    locks: ['*']
  - who: [${RELEASER}]
    role: releaser
    locks: ['file://${dir}/g1.lock']
`,
  );
  c = await startBrowserConsole({ LOCKBOARD_SOURCES: `file://${dir}`, LOCKBOARD_ACCESS_FILE: access });
}, 900_000);

afterAll(async () => {
  await c?.close();
  await stopAll();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (access) fs.rmSync(access, { force: true });
});

const listUrl = () => `${c.app.url}/locks?source=${encodeURIComponent(`file://${dir}`)}`;
const chipCount = async (page: Page, v: string) =>
  Number((await page.getByTestId(`verdict-count-${v}`).textContent())!.replace(/,/g, ''));
const rowNames = (page: Page) =>
  page.locator('[data-lock]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-lock')).sort());
const exists = (name: string) => fs.existsSync(path.join(dir, name));

/** What `/api/locks?verdict=v` matches for the page's session (the browser's own cookies). */
async function apiMatched(page: Page, v: string): Promise<number> {
  const r = await page.request.get(`${listUrl().replace('/locks?', '/api/locks?')}&verdict=${v}`);
  expect(r.status()).toBe(200);
  return ((await r.json()) as { matched: number }).matched;
}

describe('verdict chips', () => {
  it("count what /api/locks?verdict= matches, and filter the list through the address; a viewer has no 'Release all gone'", async () => {
    const context = await c.contextAs(VIEWER);
    const page = await context.newPage();
    const seen = pageProblems(page, { warnings: true });
    await page.goto(listUrl(), { waitUntil: 'networkidle' });
    await expect.poll(() => chipCount(page, 'gone'), { timeout: 10_000 }).toBe(4);
    for (const v of VERDICTS) expect(await chipCount(page, v), v).toBe(await apiMatched(page, v));
    expect([await chipCount(page, 'alive'), await chipCount(page, 'unknown')]).toEqual([1, 1]);

    await page.getByTestId('verdict-gone').click();
    await page.waitForURL(/[?&]verdict=gone/);
    expect(await page.getByTestId('verdict-gone').getAttribute('aria-pressed')).toBe('true');
    await expect
      .poll(() => rowNames(page), { timeout: 10_000 })
      .toEqual(['g1.lock', 'g2.lock', 'g3.lock', 'revived.lock']);
    await page.getByTestId('verdict-alive').click();
    await expect.poll(() => rowNames(page), { timeout: 10_000 }).toEqual(['live.lock']);
    // the address is the query: loaded afresh, the server answers it
    await page.reload({ waitUntil: 'networkidle' });
    expect(await rowNames(page)).toEqual(['live.lock']);
    await page.getByTestId('verdict-alive').click(); // pressed again: every lock
    await expect.poll(() => rowNames(page), { timeout: 10_000 }).toHaveLength(6);
    expect(page.url()).not.toMatch(/verdict=/);

    expect(await page.getByTestId('release-gone').count()).toBe(0);
    expect(await page.getByTestId('bulk-release').count()).toBe(0);
    expect(seen).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('Release all gone', () => {
  it("releases only what a releaser's grants cover, at 390 px, and says what it skipped", async () => {
    const context = await c.contextAs(RELEASER, { width: 390, height: 844 });
    const page = await context.newPage();
    const seen = pageProblems(page, { warnings: true });
    await page.goto(listUrl(), { waitUntil: 'networkidle' });
    const button = page.getByTestId('release-gone');
    await expect.poll(() => button.textContent(), { timeout: 10_000 }).toBe('Release all gone (4)…');
    await button.click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByTestId('gone-matched').textContent()).toMatch(/^4 locks are judged gone in file:\/\//);
    await expectFits(page);
    await page.getByLabel(/^Reason/).fill('build host replaced');
    await dialog.getByRole('button', { name: 'Release 4 gone' }).click();
    const summary = dialog.getByTestId('gone-summary');
    await summary.waitFor({ timeout: 20_000 });
    expect(await summary.textContent()).toBe('Released 1, skipped 3');
    const skipped = dialog.getByTestId('gone-skipped').locator('li');
    expect(await skipped.evaluateAll((l) => l.map((e) => e.getAttribute('data-lock')))).toEqual([
      'g2.lock',
      'g3.lock',
      'revived.lock',
    ]);
    expect(await skipped.first().textContent()).toMatch(
      /^g2\.lock skipped — Not releasable by you: outside your release grants/,
    );
    await expectFits(page);
    await page.screenshot({ path: `${ARTIFACTS}/release-gone-releaser-390.png` });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('status').filter({ hasText: 'Release all gone: released 1, skipped 3.' }).waitFor();
    expect([exists('g1.lock'), exists('g2.lock'), exists('g3.lock'), exists('revived.lock')]).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect(seen).toEqual([]);
    await context.close();
  }, 120_000);

  it('re-judges each lock at release: skips and names one whose holder came back, with the keyboard only', async () => {
    const context = await c.contextAs(OPERATOR);
    const page = await context.newPage();
    const seen = pageProblems(page, { warnings: true });
    await page.goto(listUrl(), { waitUntil: 'networkidle' });
    // the releaser's release reached this page's counts
    await expect.poll(() => chipCount(page, 'gone'), { timeout: 10_000 }).toBe(3);
    const button = page.getByTestId('release-gone');
    for (let i = 0; i < 40 && !(await button.evaluate((b) => b === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    expect(await button.evaluate((b) => b === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByTestId('gone-matched').textContent()).toMatch(/^3 locks are judged gone/);
    // between the dialog's listing and the release, a live process opens revived.lock: its holder is alive again
    const opener = await startHolder(PYTHON, ['-c', OPENER, path.join(dir, 'revived.lock')]);
    await page.keyboard.type('holders died with their host'); // the reason field has focus first
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.textContent?.trim())) === 'Release 3 gone') break;
    }
    await page.keyboard.press('Enter');
    const summary = dialog.getByTestId('gone-summary');
    await summary.waitFor({ timeout: 20_000 });
    expect(await summary.textContent()).toBe('Released 2, skipped 1');
    // the summary's heading takes focus: a screen reader reads it next
    expect(await summary.evaluate((h) => h === document.activeElement)).toBe(true);
    const skip = dialog.getByTestId('gone-skipped').locator('li[data-lock="revived.lock"]');
    expect(await skip.textContent()).toMatch(
      new RegExp(`only if gone.*judged alive.*pid ${opener.pid} \\(python3\\).*Nothing was touched`),
    );
    await page.screenshot({ path: `${ARTIFACTS}/release-gone-summary.png` });
    await page.keyboard.press('Escape');
    await page.getByRole('status').filter({ hasText: 'Release all gone: released 2, skipped 1.' }).waitFor();
    expect([exists('g2.lock'), exists('g3.lock'), exists('revived.lock'), exists('live.lock')]).toEqual([
      false,
      false,
      true,
      true,
    ]);
    // revived.lock is alive now: once the server has listed it again (a query asks for that), nothing is gone
    await expect
      .poll(async () => [await apiMatched(page, 'gone'), await chipCount(page, 'gone')], { timeout: 15_000 })
      .toEqual([0, 0]);
    expect(await button.isDisabled()).toBe(true);
    expect(seen).toEqual([]);
    await context.close();
  }, 120_000);
});
