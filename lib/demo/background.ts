// The demo's background loops (holders, contenders, writers): a round that throws is reported as one line, like an
// unreachable source in the console (no stack, at most once a minute per loop), and the loop tries again; nothing a
// server does (slow to start, gone, restarted) ends the demo half-way.
import { sleep } from './sleep';
import type { Stopper } from './stopper';

/** How often one loop's failure is printed: the first at once, then at most one line a minute. */
export const REPORT_EVERY_MS = 60_000;
/** The pause after a failed round, before the loop tries again. */
const RETRY_MS = 5_000;

const said = new Map<string, { at: number; quiet: number }>();

/** The first line of an error's message, without the stack. */
export const firstLine = (err: unknown) =>
  (err instanceof Error ? err.message : String(err)).split('\n')[0]!.trim() || String(err);

/** Prints `demo: <what>: <why>` once per REPORT_EVERY_MS per `what` (the lines left out are counted on the next). */
export function reportProblem(what: string, err: unknown, now = Date.now()): void {
  const last = said.get(what);
  if (last && now - last.at < REPORT_EVERY_MS) {
    last.quiet++;
    return;
  }
  const more = last?.quiet ? ` (${last.quiet} more since the last report)` : '';
  said.set(what, { at: now, quiet: 0 });
  console.error(`demo: ${what}: ${firstLine(err)}; retrying${more}`);
}

/**
 * Runs `round` again and again until `stop` is stopped; a round that throws is reported (reportProblem) and the
 * loop waits `retryMs` before the next. Never rejects.
 */
export function background(
  what: string,
  stop: Stopper,
  round: (signal: AbortSignal) => Promise<unknown>,
  retryMs = RETRY_MS,
): Promise<void> {
  const signal = stop.signal();
  return (async () => {
    while (!signal.aborted) {
      try {
        await round(signal);
      } catch (err) {
        if (signal.aborted) break;
        reportProblem(what, err);
        await sleep(retryMs, signal);
      }
    }
  })();
}
