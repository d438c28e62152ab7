// One store down never blanks the others, in Chromium against five real servers (helpers/five-sources.ts): the bulk
// dialog's careful preselection, "← All locks" keeping the list's query, the PostgreSQL advisory dialog at 390 px by
// keyboard only, and last each server stopped in turn under an open "All sources" page (Redis, PostgreSQL, dynalite,
// then the GCS emulator), the S3 emulator staying up as the witness.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS } from '../helpers/browser';
import { ADVISORY, startFiveSources, TFLOCK, type FiveSources } from '../helpers/five-sources';
import { expectFits, serverErrors } from '../helpers/page-checks';
import { freezeHolder } from '../helpers/lock';

const OPERATOR = 'operator@demo.lockboard';
let f: FiveSources;

beforeAll(async () => {
  f = await startFiveSources();
}, 240_000);
afterAll(() => f?.close());

const row = (page: Page, name: string) => page.locator(`[data-lock="${name}"]`).first();
const allUrl = () => `${f.console.app.url}/locks?source=all`;

describe('the bulk dialog', () => {
  it('preselects only what a single release would clear unasked, asks names, and shows source and version', async () => {
    const context = await f.console.contextAs(OPERATOR);
    const page = await context.newPage();
    await page.goto(allUrl(), { waitUntil: 'networkidle' });
    for (const name of ['locks/web', 'locks/stale-1', 'locks/stale-2', TFLOCK, 'locks:nightly', 'state/prod', ADVISORY])
      await row(page, name).waitFor({ timeout: 20_000 });
    const api = await (await context.request.get(`${f.console.app.url}/api/locks?source=all`)).json();
    const listed = api.locks as { name: string; health: string; source: string; store: string; versionLabel: string }[];
    await page.getByTestId('bulk-release').click();
    const preview = page.getByTestId('bulk-preview');
    await preview.waitFor();
    const box = (name: string) => preview.getByRole('checkbox', { name: `Release ${name}`, exact: true });
    const inRow = (name: string) => page.getByRole('checkbox', { name: `Release ${name}`, exact: true }); // row-relative
    // the frozen holders' expired locks only: never the refreshing one, the advisory lock or a Terraform lock
    for (const l of listed) {
      const expected = l.health === 'expired' || l.health === 'overdue';
      expect(await box(l.name).isChecked(), `${l.name} (${l.health}) preselected`).toBe(expected);
    }
    expect(await box('locks/stale-1').isChecked()).toBe(true);
    expect(await box('locks/web').isChecked()).toBe(false);
    expect(await box(ADVISORY).isChecked()).toBe(false);
    // each row names its source and its version in the store's own words
    for (const l of listed) {
      const cells = preview
        .locator('tbody tr')
        .filter({ has: inRow(l.name) })
        .locator('td');
      expect(await cells.nth(2).textContent(), `${l.name}'s source`).toBe(l.source);
      const version = (await cells.nth(5).textContent())!;
      const words = /^(ETag|value hash|item hash|pid|generation) /.exec(l.versionLabel);
      expect(words, `${l.name}: its store names its version (${l.versionLabel})`).not.toBeNull();
      // the store's words, not the value: a refreshing holder's version moves between the API read and the preview
      expect(version, `${l.name}'s version`).toContain(words![1]);
      if (l.store !== 'gcs') expect(version, `${l.name}: not in GCS's words`).not.toMatch(/generation/i);
    }
    expect(
      await preview
        .locator('tbody tr')
        .filter({ has: inRow(TFLOCK) })
        .textContent(),
    ).not.toMatch(/Generation/);
    // ticking the advisory lock asks for its name, as the single dialog does, before the count may confirm
    await box(ADVISORY).check();
    const ask = preview.getByLabel(`Type ${ADVISORY} to include it`);
    await ask.waitFor();
    expect(await page.getByTestId('bulk-names-missing').textContent()).toContain(ADVISORY);
    await page.getByLabel(/^Reason/).fill('pool B died');
    await page.getByLabel('Type the number of locks to confirm').fill('3');
    const confirm = page.getByRole('button', { name: 'Force-release 3' });
    expect(await confirm.isDisabled(), 'the name is not typed yet').toBe(true);
    await ask.fill(ADVISORY);
    expect(await page.getByTestId('bulk-names-missing').count()).toBe(0);
    expect(await confirm.isDisabled()).toBe(false);
    await box('locks/web').check();
    await preview.getByLabel('Type locks/web to include it').waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/faults-bulk-preview.png` });
    await page.getByRole('button', { name: 'Cancel' }).click(); // nothing released: the next tests use these locks
    await preview.waitFor({ state: 'detached' });
    await context.close();
  }, 90_000);
});

describe('"← All locks"', () => {
  it('returns to the list with the query the lock was opened from', async () => {
    const context = await f.console.contextAs(OPERATOR);
    const page = await context.newPage();
    const query = 'source=all&health=expired&sort=owner&dir=desc';
    await page.goto(`${f.console.app.url}/locks?${query}`, { waitUntil: 'networkidle' });
    // a filter typed on the page changes the address without a navigation: that address is the one returned to
    await page.getByRole('searchbox').fill('stale');
    await page.waitForURL(/q=stale/);
    const listUrl = page.url();
    const href = (await row(page, 'locks/stale-2').getByRole('link').getAttribute('href'))!;
    await row(page, 'locks/stale-2').getByRole('link').click();
    await page.waitForURL(/\/locks\/locks\/stale-2/);
    const back = page.getByRole('link', { name: /^← / });
    await back.filter({ hasText: 'All locks (as filtered)' }).waitFor();
    await back.click();
    await page.waitForURL((u) => u.pathname === '/locks' && u.search !== '');
    expect(new URLSearchParams(new URL(page.url()).search).toString()).toBe(
      new URLSearchParams(new URL(listUrl).search).toString(),
    );
    expect(await page.getByRole('searchbox').inputValue()).toBe('stale');
    await row(page, 'locks/stale-1').waitFor();
    expect(await page.locator('[data-lock="locks/web"]').count(), 'the filter still applies').toBe(0);
    // opened without the list (a shared link, a new tab): back to the lock's own source
    const fresh = await (await f.console.contextAs(OPERATOR)).newPage();
    await fresh.goto(`${f.console.app.url}${href}`);
    await fresh.getByRole('link', { name: `← Locks of ${f.ids.gcs}`, exact: true }).waitFor();
    await fresh.context().close();
    await context.close();
  }, 60_000);
});

describe('the PostgreSQL advisory dialog at 390 px', () => {
  it('fits the screen and opens, fills and cancels with the keyboard only', async () => {
    const context = await f.console.contextAs(OPERATOR, { width: 390, height: 844 });
    const page = await context.newPage();
    await page.goto(`${f.console.app.url}/locks?source=${encodeURIComponent(f.ids.pg)}`, { waitUntil: 'networkidle' });
    const opener = page.getByRole('button', { name: `Force-release ${ADVISORY}` });
    await opener.waitFor();
    let focused = false; // Tab through the page to the lock's Release button, as a keyboard user does
    for (let i = 0; i < 60 && !focused; i++) {
      await page.keyboard.press('Tab');
      focused = await opener.evaluate((e) => e === document.activeElement);
    }
    expect(focused, 'the Release button is reachable by Tab').toBe(true);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect // the dialog moves focus in an effect, after it is shown
      .poll(() => page.evaluate(() => document.activeElement?.tagName), { message: 'focus starts in the reason' })
      .toBe('TEXTAREA');
    await page.keyboard.type('migration crashed');
    await page.keyboard.press('Tab');
    // the advisory lock's session is alive ([why]): clearing it asks for the extra acknowledgement, by keyboard too
    expect(await page.evaluate(() => document.activeElement?.closest('label')?.textContent)).toMatch(
      /The holder is alive: clearing makes two holders/,
    );
    expect(await dialog.getByRole('button', { name: 'Force-release', exact: true }).isEnabled()).toBe(false);
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Type the lock name to confirm',
    );
    await page.keyboard.type(ADVISORY);
    expect(await dialog.getByRole('button', { name: 'Force-release', exact: true }).isEnabled()).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/faults-advisory-390.png` });
    await expectFits(page);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await opener.evaluate((e) => e === document.activeElement), 'focus back on the opener').toBe(true);
    await row(page, ADVISORY).waitFor(); // cancelled: nothing released
    // the same dialog opened from the lock's own page
    await page.goto(`${f.console.app.url}${await row(page, ADVISORY).getByRole('link').getAttribute('href')}`);
    await page.getByRole('button', { name: 'Force-release…' }).click();
    await dialog.waitFor();
    await expectFits(page);
    await page.keyboard.press('Escape');
    await page.screenshot({ path: `${ARTIFACTS}/faults-advisory-page-390.png`, fullPage: true });
    await context.close();
  }, 60_000);
});

describe('a server stopped under an open page', () => {
  it('names that source unreachable in its words while the others stay listed and live', async () => {
    const context = await f.console.contextAs('viewer@demo.lockboard');
    const page = await context.newPage();
    const errors = serverErrors(page);
    await page.goto(allUrl(), { waitUntil: 'networkidle' });
    await row(page, 'state/prod').waitFor({ timeout: 20_000 });
    const steps = [
      { id: f.ids.redis, words: /Cannot reach Redis at /, rows: ['locks:nightly'], stop: () => f.redis.stop() },
      { id: f.ids.pg, words: /Cannot reach PostgreSQL at /, rows: [ADVISORY], stop: () => f.pg.stop() },
      { id: f.ids.dynamo, words: /Cannot reach DynamoDB for /, rows: ['state/prod'], stop: () => f.dynamo.stop() },
      {
        id: f.ids.gcs,
        words: /Cloud Storage is unavailable/,
        rows: ['locks/web'],
        stop: () => (f.gcsHeld.forEach(freezeHolder), f.gcs.close()),
      },
    ];
    const up = new Set(steps.flatMap((s) => s.rows).concat(TFLOCK));
    for (const [i, step] of steps.entries()) {
      await step.stop();
      step.rows.forEach((r) => up.delete(r));
      const port = new URL(step.id.replace(/^\w+:/, 'http:')).port;
      const note = page.getByTestId('source-unreachable').filter({ hasText: port ? `:${port}` : step.id });
      await note.waitFor({ timeout: 30_000 });
      const text = (await note.textContent())!;
      expect(text, 'in the store’s own words').toMatch(step.words);
      expect(text, 'the time of the last good read').toMatch(
        /since \d\d:\d\d UTC.*last good listing, of \d\d:\d\d UTC/,
      );
      for (const name of up) await row(page, name).waitFor({ timeout: 5_000 }); // the others stay listed
      expect(await page.getByTestId('updated').textContent()).toMatch(/live/);
      // a lock written to the healthy S3 source meanwhile appears, pushed or at its next listing pass
      const key = `envs/after-${i}/terraform.tfstate.tflock`;
      const modes = (await page.getByTestId('source-modes').textContent())!;
      const poll = Number(new RegExp(`${f.ids.s3}: polled every (\\d+) s`).exec(modes)?.[1] ?? 0) * 1000;
      const wrote = Date.now();
      await f.putS3(key, `after-${i}@ci`);
      await row(page, key).waitFor({ timeout: 30_000 });
      const took = Date.now() - wrote;
      console.log(`${step.id} down: ${text} | S3 lock shown after ${took} ms (${modes})`);
      expect(took, `S3 lock listed within its pass (${poll} ms) + 1 s`).toBeLessThanOrEqual(poll + 1000);
      up.add(key);
      if (i === 0) {
        // churn stays up with one source down, naming the trail it cannot read
        const churn = await context.newPage();
        const churnErrors = serverErrors(churn);
        await churn.goto(`${f.console.app.url}/churn`, { waitUntil: 'networkidle' });
        await churn
          .getByTestId('churn-unreachable')
          .filter({ hasText: `:${port}` })
          .waitFor({ timeout: 20_000 });
        expect(churnErrors).toEqual([]);
        await churn.close();
      }
    }
    await page.screenshot({ path: `${ARTIFACTS}/faults-four-down.png` });
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);
});
