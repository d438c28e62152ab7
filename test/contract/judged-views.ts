// What the contract asks of every view a store hands out (stores.md "Verdict"): a judged view carries its verdict and
// one sentence leading with it, evidence as { fact, from, at }, and never the store's raw signs.
import { expect } from 'vitest';
import type { LockStore, LockView } from '@/lib/lock/store';
import { isJudged } from '@/lib/lock/verdict/verdict';

const LEAD = { gone: 'Holder gone: ', stalled: 'Stalled: ', alive: 'Alive: ', unknown: 'Unknown: ' } as const;

/** The view as the contract wants it: judged where `isJudged` says it is, never with signs. */
export function expectJudged(view: LockView, where: string): void {
  expect(view, `${where}: ${view.name}`).not.toHaveProperty('signs');
  if (!isJudged(view)) return;
  expect(Object.keys(LEAD), `${where}: ${view.name}`).toContain(view.verdict);
  expect(view.sentence?.startsWith(LEAD[view.verdict!]), `${where}: ${view.sentence}`).toBe(true);
  for (const e of view.evidence ?? []) {
    expect(Object.keys(e).sort()).toEqual(['at', 'fact', 'from']);
    expect(Number.isNaN(Date.parse(e.at))).toBe(false);
  }
}

/**
 * A first page listed metadata first (`later`) on a store that has read nothing yet, and every view it hands over
 * after: waits until each pending view is delivered (or dropped as no lock), for at most `waitMs`.
 */
export async function coldListing(store: LockStore, waitMs = 10_000) {
  const later: LockView[] = [];
  let dropped = 0;
  const page = await store.list(undefined, {
    later: (read) => {
      later.push(...read.views);
      dropped += read.dropped.length;
    },
  });
  const pending = page.locks.filter((l) => l.pending).length;
  const until = performance.now() + waitMs;
  while (later.length + dropped < pending && performance.now() < until) await new Promise((r) => setTimeout(r, 20));
  return { page, later, pending, delivered: later.length + dropped };
}
