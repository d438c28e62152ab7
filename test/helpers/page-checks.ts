// Checks of an open page in the browser tests: what it reports as broken, and whether an open dialog fits the screen.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The page's browser errors and 5xx answers while it is open (a source down must never make the console fail). */
export function serverErrors(page: Page): string[] {
  const found: string[] = [];
  page.on('pageerror', (e) => found.push(`page error: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 500) found.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  return found;
}

/** The open dialog fits a 390 px screen: no sideways scrolling, its box and every part of it in view. */
export async function expectFits(page: Page): Promise<void> {
  const fits = await page.evaluate(() => {
    const box = document.querySelector('dialog[open]')!.getBoundingClientRect();
    const wide = [...document.querySelectorAll('dialog[open] *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth)
      .map((e) => `${e.tagName}.${e.className}`.slice(0, 80));
    // what makes the page behind scroll sideways: the outermost parts past the right edge
    const page = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((e) => !(e.parentElement && e.parentElement.getBoundingClientRect().right > window.innerWidth + 1))
      .map((e) => `${e.tagName}.${e.className} "${e.textContent?.slice(0, 30)}"`.slice(0, 120));
    return { scroll: document.documentElement.scrollWidth, left: box.left, right: box.right, wide, page };
  });
  expect(fits.scroll, `${page.url()}: ${fits.page.join(' | ')}`).toBeLessThanOrEqual(390);
  expect(fits.left).toBeGreaterThanOrEqual(0);
  expect(fits.right, fits.wide.join(' | ')).toBeLessThanOrEqual(390);
  expect(fits.wide).toEqual([]);
}

/**
 * Everything the page reports as wrong while it is open: console errors (and warnings, with `warnings`), page errors
 * and 4xx/5xx answers, except the answers a test expects (`expected`: a refused release's 409, say).
 */
export function pageProblems(
  page: Page,
  o: { warnings?: boolean; expected?: (url: string, status: number) => boolean } = {},
): string[] {
  const found: string[] = [];
  const expected = o.expected ?? (() => false);
  page.on('console', (m) => {
    // Chromium logs every 4xx answer as a console error too: an expected one is not a problem
    const status = Number(/status of (\d{3})/.exec(m.text())?.[1]);
    if (status && expected(m.location().url, status)) return;
    if (m.type() === 'error' || (o.warnings && m.type() === 'warning')) found.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => found.push(`page error: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400 && !expected(r.url(), r.status())) found.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  return found;
}
