// A Kubernetes source in the console, in Chromium, signed in, on the real kube-apiserver: a Lease changed by kubectl
// shows on the list, and a client-go leader's renews on the lock page, within a second and without a reload (the
// Lease watch); a dead leader's Lease released from the dialog is taken by the waiting client-go candidate at its
// next retry, and the page shows the new holder by itself.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageProblems } from '../helpers/page-checks';
import { ARTIFACTS } from '../helpers/browser';
import { startBrowserConsole, type BrowserConsole } from '../helpers/console-browser';
import { startKube, type Candidate, type TestKube } from '../helpers/kubernetes';
import { delay } from '../helpers/requests';

const SOURCE = 'kubernetes://default';
const LIST = `/locks?source=${encodeURIComponent(SOURCE)}`;
const LOCK_PAGE = `/locks/ctrl-e2e?bucket=${encodeURIComponent(SOURCE)}`;
let kube: TestKube;
let c: BrowserConsole;
let leader: Candidate;
let waiting: Candidate;

const hold = (name: string, holder: string): void => {
  const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: 'default' } };
  const r = kube.kubectl(['apply', '-f', '-'], JSON.stringify({ ...lease, spec: { holderIdentity: holder } }));
  expect(r.code, r.stderr).toBe(0);
};

const problems = (page: Page): string[] => pageProblems(page);

/** The lock page's value of the detail `label` (its <dd>). */
const detail = (page: Page, label: string) =>
  page.locator('dt', { hasText: label }).first().locator('xpath=following-sibling::dd[1]');

beforeAll(async () => {
  kube = await startKube();
  leader = kube.candidate({ namespace: 'default', name: 'ctrl-e2e', id: 'pod-a' });
  await leader.waitFor('LEADING');
  waiting = kube.candidate({ namespace: 'default', name: 'ctrl-e2e', id: 'pod-b' });
  await waiting.waitFor('NEW_LEADER');
  hold('job-e2e', 'job-1');
  c = await startBrowserConsole({ LOCKBOARD_SOURCES: SOURCE, KUBECONFIG: kube.kubeconfig });
}, 600_000);

afterAll(async () => {
  await c?.close();
  await kube?.stop();
});

describe('a Kubernetes source in the browser', () => {
  it('shows a Lease changed by kubectl on the list within a second, without a reload', async () => {
    const context = await c.contextAs('operator@demo.lockboard');
    const page = await context.newPage();
    const seen = problems(page);
    await page.goto(`${c.app.url}${LIST}`);
    await page.locator('[data-lock="ctrl-e2e"]').filter({ hasText: 'pod-a' }).waitFor({ timeout: 20_000 });
    await page.locator('[data-lock="job-e2e"]').filter({ hasText: 'job-1' }).waitFor();
    await delay(1_000); // the live stream is open
    const shownAfter: number[] = [];
    for (const [name, holder] of [
      ['job-e2e', 'job-2'],
      ['job-new', 'job-3'],
    ] as const) {
      hold(name, holder);
      const written = Date.now(); // kubectl has returned: the apiserver has the Lease
      await page.locator(`[data-lock="${name}"]`).filter({ hasText: holder }).waitFor({ timeout: 5_000 });
      shownAfter.push(Date.now() - written);
    }
    console.log(`kubectl write → list row shown: ${shownAfter.join(' ms, ')} ms`);
    for (const ms of shownAfter) expect(ms).toBeLessThan(1_000);
    expect(seen).toEqual([]);
    await context.close();
  }, 60_000);

  it('shows the client-go leader’s renews on the lock page within a second of each renew', async () => {
    const context = await c.contextAs('operator@demo.lockboard');
    const page = await context.newPage();
    const seen = problems(page);
    await page.goto(`${c.app.url}${LOCK_PAGE}`);
    const renew = detail(page, 'renewTime');
    await renew.waitFor({ timeout: 20_000 });
    // measured once the page's stream is open: a renew before it is shown by the stream's first read, not pushed
    await page.locator('section[data-live="live"]').waitFor({ timeout: 10_000 });
    const lags: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = await renew.textContent();
      await page.waitForFunction(
        ([label, old]) => {
          const dt = [...document.querySelectorAll('dt')].find((d) => d.textContent?.includes(label!));
          return dt?.nextElementSibling?.textContent !== old;
        },
        ['renewTime', before] as const,
        { timeout: 5_000, polling: 20 },
      );
      const shown = Date.now();
      // the writer stamps renewTime on this machine's clock just before its PUT
      const text = (await renew.textContent())!.replace(/(\.\d{3})\d*Z$/, '$1Z');
      lags.push(shown - Date.parse(text));
    }
    console.log(`client-go renew → lock page: ${lags.join(' ms, ')} ms`);
    for (const ms of lags) expect(ms).toBeLessThan(1_000);
    expect(seen).toEqual([]);
    await context.close();
  }, 60_000);

  it('hands a dead leader’s Lease to the waiting client-go candidate when released from the dialog', async () => {
    await leader.stop('SIGKILL'); // a dead leader: its Lease stays held for 15 s, and pod-b waits that long
    await delay(1_500);
    const context = await c.contextAs('operator@demo.lockboard');
    const page = await context.newPage();
    const seen = problems(page);
    await page.goto(`${c.app.url}${LOCK_PAGE}`);
    await page.getByText('pod-a').first().waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Force-release…' }).click();
    expect(await page.getByTestId('dialog-store-rule').textContent()).toMatch(/resourceVersion/);
    await page.getByLabel(/^Reason/).fill('leader pod crashed');
    // killed 1.5 s ago, its last renewal is within its 15 s: judged alive where the console saw it renew ([why]), so the
    // dialog asks for the extra acknowledgement (unknown, without it, where it was read only once)
    const alive = page.getByLabel(/The holder is alive: clearing makes two holders/);
    if (await alive.count()) await alive.check();
    const confirm = page.getByLabel('Type the lock name to confirm');
    if (await confirm.count()) await confirm.fill('ctrl-e2e');
    const lines = waiting.lines.length;
    await page.getByRole('button', { name: 'Force-release', exact: true }).click();
    const released = Date.now();
    await page.getByRole('status').filter({ hasText: 'Released ctrl-e2e' }).waitFor({ timeout: 10_000 });
    const leading = await waiting.waitFor('LEADING', 10_000, lines);
    console.log(`release → pod-b leading: ${leading - released} ms (its lease is 15 s)`);
    expect(leading - released).toBeLessThan(5_000);
    await page.getByText('pod-b').first().waitFor({ timeout: 3_000 }); // shown by itself, no reload
    await page.screenshot({ path: `${ARTIFACTS}/kubernetes-handover.png` });
    expect(seen).toEqual([]);
    await context.close();
  }, 60_000);
});
