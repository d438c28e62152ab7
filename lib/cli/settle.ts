// A judgement that needs two reads (a renewal, an expiry moving, a recordVersionNumber changing): `--settle` reads
// again one interval later through the same store (which remembers the first read), bounded and said on stderr;
// without it the verdict's sentence says how to settle it. Never "healthy" from one read that cannot prove it.
import type { LockStore, LockView } from '../lock/store';
import { escapeText } from '../text/safe-text';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The longest --settle waits: a longer interval (a 5-minute lease) is read again after this and may stay unknown. */
const MAX_SETTLE_MS = 60_000;

/**
 * The lock, read a second time by the same store (which remembers the first read) one interval later when asked and
 * the first read could not judge; the wait is said on stderr, so stdout stays the answer.
 */
export async function judgedLock(store: LockStore, name: string, settle: boolean): Promise<LockView | null> {
  const first = await store.inspect(name);
  const wanted = first?.settleMs;
  if (!settle || !wanted) return first;
  const wait = Math.min(wanted, MAX_SETTLE_MS);
  const capped = wait < wanted ? ` (of the ${Math.ceil(wanted / 1000)} s it needs; it may stay unknown)` : '';
  process.stderr.write(escapeText(`Waiting ${Math.ceil(wait / 1000)} s${capped} to read ${name} again…`) + '\n');
  await sleep(wait);
  return store.inspect(name);
}

/** The verdict's sentence, and where one read could not judge, how this command settles it. */
export function sentenceWithSettle(lock: LockView): string | undefined {
  if (!lock.sentence) return undefined;
  if (!lock.settleMs) return lock.sentence;
  return `${lock.sentence} Run with --settle to read again after ${Math.ceil(Math.min(lock.settleMs, MAX_SETTLE_MS) / 1000)} s.`;
}
