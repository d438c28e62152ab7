// The holder re-judged at release time (docs/verdict.md): an alive holder is cleared only with an explicit
// acknowledgement, and a release asked "only if gone" (bulk "Release all gone", the CLI's --if-gone) is refused for a
// lock no longer judged gone. Refusals are 409 conflicts saying why; nothing is touched.
import 'server-only';
import type { LockView } from '@/lib/lock/store';
import { ApiError } from './api-error';
import { verdictOf } from '@/lib/lock/verdict/verdict';

const ALIVE_ACKNOWLEDGEMENT = 'The holder is alive: clearing makes two holders';

/** `now`: the lock as inspected at release time, its holder read then (never evidence from before). */
export function assertVerdictAllows(
  now: LockView | null,
  o: { acknowledgeAlive?: boolean; ifGone?: boolean; version: string },
): void {
  const verdict = now ? verdictOf(now) : undefined;
  if (!verdict) return; // absent, free or not a lock: the store's own release answers it
  // Another version holds it now (a successor, a refresh): the verdict is of a lock the operator never saw, and the
  // store's release, pinned to the version seen, refuses it as changed or refreshed, touching nothing. (A version
  // given in a shorter form, GCS's generation alone, is judged: it may match the lock held now.)
  if (now!.version !== undefined && now!.version !== o.version && !now!.version.startsWith(`${o.version}.`)) return;
  if (o.ifGone && verdict.verdict !== 'gone')
    throw new ApiError(
      'conflict',
      `Not released: "only if gone" was asked and its holder is now judged ${verdict.verdict}: ${verdict.sentence} Nothing was touched.`,
    );
  if (verdict.verdict === 'alive' && !o.acknowledgeAlive)
    throw new ApiError(
      'conflict',
      `${verdict.sentence} ${ALIVE_ACKNOWLEDGEMENT}: send "acknowledgeAlive": true to clear it anyway. Nothing was touched.`,
    );
}
