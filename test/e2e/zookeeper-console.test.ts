// A ZooKeeper source in the console, in real Chromium against Debian's ZooKeeper, with a Curator LeaderLatch leader
// and candidate written by Curator (Debian's jars): the release dialog's button stays disabled until the operator
// ticks the checkbox saying the old leader keeps leading; then the release goes through, the list shows the new
// leader without a reload, and the old leader indeed still leads (what the checkbox said).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageProblems } from '../helpers/page-checks';
import type { ZooKeeperServer } from '@/lib/demo/zookeeper-server';
import { ARTIFACTS } from '../helpers/browser';
import { startBrowserConsole, type BrowserConsole } from '../helpers/console-browser';
import { curator, startZooKeeper, type RecipeDriver } from '../helpers/zookeeper';

const LATCH = 'svc/billing/latch';
let server: ZooKeeperServer;
let c: RecipeDriver;
let app: BrowserConsole;

beforeAll(async () => {
  server = await startZooKeeper();
  c = curator(server.hosts);
  await c.start('A', 'latch', `/${LATCH}`, 'billing-A');
  await c.start('B', 'latch', `/${LATCH}`, 'billing-B');
  app = await startBrowserConsole({ LOCKBOARD_SOURCES: `zookeeper://${server.hosts}/svc` });
}, 240_000);
afterAll(async () => {
  await app?.close();
  await c?.stop();
  await server?.stop();
});

const problems = (page: Page): string[] => pageProblems(page);

describe('a ZooKeeper leader election in the console', () => {
  it('releases a LeaderLatch leader only once the two-leaders checkbox is ticked; the list follows live', async () => {
    expect(await c.held('A')).toBe(true);
    const context = await app.contextAs('operator@demo.lockboard');
    const page = await context.newPage();
    const seen = problems(page);
    await page.goto(`${app.app.url}/locks?source=all`, { waitUntil: 'networkidle' });
    const row = page.locator(`[data-lock="${LATCH}"]`);
    await row.filter({ hasText: 'billing-A' }).waitFor({ timeout: 20_000 });

    await page.getByRole('button', { name: `Force-release ${LATCH}` }).click();
    const dialog = page.getByRole('dialog');
    const accept = dialog.getByRole('checkbox', { name: /old leader is not told and keeps believing it leads/ });
    await accept.waitFor();
    const submit = dialog.getByRole('button', { name: 'Force-release', exact: true });
    await dialog.getByLabel(/^Reason/).fill('failover drill');
    await dialog.getByLabel('Type the lock name to confirm').fill(LATCH);
    // everything else is filled in: only the acknowledgement is missing
    expect(await submit.isDisabled()).toBe(true);
    await accept.check();
    // the leader's session is connected and pinging ([why]: alive): the alive acknowledgement too
    await dialog.getByLabel(/The holder is alive: clearing makes two holders/).check();
    expect(await submit.isEnabled()).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/zookeeper-two-leaders.png` });
    await submit.click();
    await page
      .getByRole('status')
      .filter({ hasText: `Released ${LATCH}` })
      .waitFor({ timeout: 10_000 });

    // the list shows the new leader without a reload, and the old one still leads: two leaders, as ticked
    await row.filter({ hasText: 'billing-B' }).waitFor({ timeout: 5_000 });
    expect(await row.textContent()).not.toContain('billing-A');
    expect([await c.held('A'), await c.held('B')]).toEqual([true, true]);
    // a change made outside the console reaches the list by itself: the new leader's session ends, the lock goes
    await c.close('B');
    await row.waitFor({ state: 'detached', timeout: 10_000 });
    expect(seen).toEqual([]);
    await context.close();
  }, 90_000);
});
