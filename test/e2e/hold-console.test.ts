// A hold from the console (#60), in Chromium at 390 px, as an operator on the emulator: "Hold…" on a free Terraform
// lock (the dialog fits the phone, the reason typed, Terraform's format offered first), the hold in its own look on
// the lock's page and in the list ("Holds only" leaves only it), the object written as Terraform's LockInfo, then
// "End hold" deletes it. The browser console stays clean.
import { Storage } from '@google-cloud/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { acquireLock, type Lock } from '@/lib/lock';
import { expectFits, pageProblems } from '../helpers/page-checks';
import { ARTIFACTS } from '../helpers/browser';
import { startBrowserConsole, type BrowserConsole } from '../helpers/console-browser';

const NAME = 'prod/default.tflock';
const OPERATOR = 'operator@demo.lockboard';
let emulator: Emulator;
let c: BrowserConsole;
let other: Lock;

beforeAll(async () => {
  emulator = await startEmulator({ buckets: ['tf-state'] });
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'test' });
  other = await acquireLock({ storage, bucket: 'tf-state', name: 'prod/jobs', identity: 'etl-1', ttlMs: 300_000 });
  c = await startBrowserConsole({ LOCKBOARD_SOURCES: 'gs://tf-state/prod/', LOCKBOARD_GCS_ENDPOINT: emulator.url });
}, 900_000);

afterAll(async () => {
  await other?.release();
  await c?.close();
  await emulator?.close();
});

const object = () => new Storage({ apiEndpoint: emulator.url, projectId: 'test' }).bucket('tf-state').file(NAME);

describe('a hold from the console', () => {
  it('holds a free lock with a reason, shows it on its page and in the list, and ends it', async () => {
    const context = await c.contextAs(OPERATOR, { width: 390, height: 844 });
    const page = await context.newPage();
    const seen = pageProblems(page, { warnings: true });
    await page.goto(`${c.app.url}/locks/${NAME}`, { waitUntil: 'networkidle' });
    await page.getByText('This lock is free').waitFor();

    await page.getByRole('button', { name: 'Hold…' }).click();
    await page.getByRole('dialog').waitFor();
    await expect.poll(() => page.getByLabel('Format').inputValue(), { timeout: 10_000 }).toBe('terraform');
    await expectFits(page);
    await page.keyboard.type('INC-123 state surgery'); // the reason has the focus
    await page.getByRole('textbox', { name: /^For \(/ }).fill('2h');
    await page.screenshot({ path: `${ARTIFACTS}/hold-dialog-390.png` });
    await page.getByRole('button', { name: 'Hold', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Held ${NAME} until` })
      .waitFor({ timeout: 15_000 });

    const held = page.getByTestId('hold').first();
    await held.waitFor({ timeout: 10_000 });
    expect(await held.textContent()).toMatch(
      /Held on purpose by operator@demo\.lockboard · INC-123 state surgery · until .* \((1h 59m|2h 00m) left\)/,
    );
    const info = JSON.parse((await object().download())[0].toString()) as { Who: string; Info: string };
    expect(info.Who).toMatch(/^operator@demo\.lockboard \(lockboard hold until /);
    expect(info.Info).toContain('INC-123 state surgery');

    await page.goto(`${c.app.url}/locks?source=${encodeURIComponent('gs://tf-state/prod/')}`, {
      waitUntil: 'networkidle',
    });
    const row = page.locator(`[data-lock="${NAME}"]`).getByTestId('hold');
    await row.waitFor({ timeout: 15_000 });
    // a row carries the owner field (who and until), not Terraform's Info: the reason is on the lock's page
    expect(await row.textContent()).toMatch(/^HOLDHeld on purpose by operator@demo\.lockboard · until .* left\)$/);
    await page.locator('[data-lock="prod/jobs"]').waitFor();
    await page.getByRole('button', { name: 'Holds only' }).click();
    await page.waitForURL(/[?&]q=lockboard(\+|%20)hold(\+|%20)until/);
    await expect.poll(() => page.locator('[data-lock]').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole('button', { name: 'Holds only' }).getAttribute('aria-pressed')).toBe('true');
    await page.screenshot({ path: `${ARTIFACTS}/hold-list-390.png` });

    await page.goto(`${c.app.url}/locks/${NAME}`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'End hold' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Ended the hold on ${NAME}` })
      .waitFor({ timeout: 15_000 });
    expect((await object().exists())[0]).toBe(false);
    await page.getByText('This lock is free').waitFor({ timeout: 10_000 });
    expect(seen).toEqual([]);
    await context.close();
  }, 120_000);
});
