// The watcher's pace (watcher.ts): how long it coalesces, how long a query keeps a source listed, and what a query
// waits for before it answers.
/** Changes reported within this window are read together: a burst of refreshes is one event, not a flood. */
export const COALESCE_MS = 100;
/** A query keeps the source listed this long after it, with nobody watching (a polling client asks again). */
export const ASKED_KEEPS_MS = 10_000;
export const SWEEP_MS = 1_000;
/** A pass this quick is waited for by a query (a small source stays as fresh as a direct listing). */
export const QUICK_PASS_MS = 500;
/** Bodies still being read that a query waits for (a small source answers whole). */
export const FEW_PENDING = 1_000;
/** Keys past which a first pass cannot be quick (several pages): a query answers from what is listed so far. */
export const BIG_SOURCE = 50_000;
