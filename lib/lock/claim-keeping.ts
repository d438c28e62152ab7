// How long a webhook delivery claim is kept (README "Webhooks"): two days, far past a delivery's hour of retries and a
// restarted replica's ten-minute look-back. A store that removes its own old claims does so at most once an hour per
// console, after a claim, in the background: a claim never waits for it and a failed removal is tried next hour.
const CLAIM_KEEP_MS = 2 * 86_400_000;
const CLAIM_PRUNE_EVERY_MS = 3_600_000;

/** A claim key as the notifier makes them (letters, digits, `-`): a prune removes nothing else it finds beside them. */
export const CLAIM_KEY = /^[A-Za-z0-9-]{1,200}$/;

/** Runs `prune` when the last run is an hour old (or never was); its failure is dropped until the next run. */
export class ClaimPruner {
  private last = 0;

  constructor(private readonly prune: (cutoffMs: number) => Promise<unknown> | void) {}

  /** Called after each claim: prunes claims older than `keepMs` at most once per `every`. */
  maybe(keepMs = CLAIM_KEEP_MS, every = CLAIM_PRUNE_EVERY_MS): void {
    if (Date.now() - this.last < every) return;
    this.last = Date.now();
    void Promise.resolve()
      .then(() => this.prune(Date.now() - keepMs))
      .catch(() => undefined);
  }
}
