// How the demo ends, on the first Ctrl-C or SIGTERM (or when start-up fails): a graceful stop (release the demo
// locks, stop the console, the servers and the emulator) for at most STOP_DEADLINE_MS, then whatever is left killed.
// A second signal kills at once. Either way nothing the demo started outlives it.

/** How long a graceful stop may take before the demo's servers are killed. */
export const STOP_DEADLINE_MS = 5_000;

export const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/**
 * Resolves at the first SIGINT or SIGTERM. The handlers stay for the demo's whole life, from its first line: a signal
 * with no handler would end the process at once, leaving PostgreSQL (its own process group) running.
 */
export function stopRequested(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.on('SIGINT', () => resolve());
    process.on('SIGTERM', () => resolve());
  });
}

export async function shutdown(o: {
  graceful: () => Promise<unknown>;
  kill: () => void;
  code: number;
}): Promise<never> {
  // npm forwards the signal it got to the demo, which got Ctrl-C's SIGINT itself too: one press, two signals. A
  // second signal within a second is that echo, not a second press.
  const since = Date.now();
  const now = () => {
    if (Date.now() - since < 1_000) return;
    o.kill();
    process.exit(130);
  };
  process.on('SIGINT', now);
  process.on('SIGTERM', now);
  const finished = await Promise.race([
    o.graceful().then(
      () => true,
      () => true,
    ),
    pause(STOP_DEADLINE_MS).then(() => false),
  ]);
  if (!finished) console.log(`Stopping took over ${STOP_DEADLINE_MS / 1000} s; ending what is left.`);
  o.kill();
  console.log('Stopped.');
  process.exit(o.code);
}
