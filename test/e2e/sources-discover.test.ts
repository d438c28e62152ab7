// The Sources page in Chromium: an operator presses Discover and sees its progress, then the bucket no configured
// source watches with the entry to add to LOCKBOARD_SOURCES (the watched one not listed); a viewer gets the page's 403
// in page-roles' words, and no Sources link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, type Lock } from '@/lib/lock';
import { ARTIFACTS } from '../helpers/browser';
import { startBrowserConsole, type BrowserConsole } from '../helpers/console-browser';
import { startTestEmulator, type Target } from '../helpers/gcs';

let t: Target;
let c: BrowserConsole;
const held: Lock[] = [];

beforeAll(async () => {
  t = await startTestEmulator({ buckets: ['watched', 'forgotten'] });
  const on = (bucket: string, name: string) =>
    acquireLock({ storage: t.storage, bucket, name, identity: 'e2e', ttlMs: 120_000, refreshIntervalMs: 5_000 });
  held.push(await on('watched', 'locks/web'), await on('forgotten', 'ci/build'));
  c = await startBrowserConsole({ LOCKBOARD_SOURCES: 'gs://watched/locks/', LOCKBOARD_GCS_ENDPOINT: t.emulator!.url });
}, 900_000);

afterAll(async () => {
  await Promise.allSettled(held.map((l) => l.release()));
  await c?.close();
  await t?.close();
});

describe('the Sources page', () => {
  it('discovers on request, shows progress, then what is found but not watched with its entry', async () => {
    const context = await c.contextAs('operator@demo.lockboard', { width: 1440, height: 900 });
    const page = await context.newPage();
    await page.goto(`${c.app.url}/sources`, { waitUntil: 'networkidle' });
    // every state the panel passes through, recorded by the page itself (the progress may last a few ms)
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const p = document.querySelector('[data-testid="discover-progress"]');
        if (p?.textContent) seen.push(p.textContent);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Discover' }).click();
    const row = page.getByTestId('unwatched');
    await row.first().waitFor({ timeout: 60_000 });
    expect(await row.allTextContents()).toEqual([
      expect.stringMatching(/^gs:\/\/forgotten\/ci\/1 lockboard · sampled \d+,gs:\/\/forgotten\/ci\/$/),
    ]);
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen.some((s) => /^(Starting…|gs:\/\/: \d+\/\d+ listed, \d+ read, \d+ requests)$/.test(s))).toBe(true);
    expect(await page.getByText(/^gs:\/\/ \(Cloud Storage\): 2 sources/).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Discover' }).isEnabled()).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/sources-discover.png`, fullPage: true });
    await context.close();
  }, 120_000);

  it("tells a viewer the role it needs, in page-roles' words, with no Sources link", async () => {
    const context = await c.contextAs('viewer@demo.lockboard', { width: 1440, height: 900 });
    const page = await context.newPage();
    const response = await page.goto(`${c.app.url}/sources`);
    expect(response?.status()).toBe(403);
    expect(await page.getByTestId('forbidden-reason').textContent()).toMatch(
      /The Sources page needs the operator role over every lock \("\*"\); viewer@demo\.lockboard is a viewer/,
    );
    expect(await page.getByRole('navigation', { name: 'Main' }).getByText('Sources').count()).toBe(0);
    await context.close();
  }, 60_000);
});
