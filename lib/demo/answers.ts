// When the demo may print its banner: once the console answers what a person opens first (its login page) as well as
// its health check, each within a bound. A console whose /api/health had answered once was announced while /login
// still timed out (issue #62); the login page's first answer also warms it for the person who opens it.

const HEALTH_MS = 1_000;
const PAGE_MS = 10_000;

/**
 * Whether `url` answers 2xx within `ms`, body included. The bound is a timer of its own raced against the request (and
 * aborting it), not only the request's signal: a connection the server accepted and never answered must never hold
 * the demo's start-up (one run sat six minutes with no banner while its console answered everyone else).
 */
async function answers(url: string, ms: number): Promise<boolean> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => {
      abort.abort();
      resolve(false);
    }, ms);
  });
  const asked = (async () => {
    const res = await fetch(url, { signal: abort.signal, redirect: 'manual' });
    await res.arrayBuffer();
    return res.ok;
  })().catch(() => false); // not listening yet, or aborted
  try {
    return await Promise.race([asked, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the console at `url` answers /api/health and /login now (`healthMs`, `pageMs`: how long each may take). */
export async function consoleAnswers(url: string, o: { pageMs?: number; healthMs?: number } = {}): Promise<boolean> {
  return (
    (await answers(`${url}/api/health`, o.healthMs ?? HEALTH_MS)) &&
    (await answers(`${url}/login`, o.pageMs ?? PAGE_MS))
  );
}

/** How many checks in a row, how far apart, make a console steady; and how long the demo waits for that at most. */
const STEADY = { times: 8, gapMs: 400, withinMs: 1_000, waitMs: 90_000 };

/**
 * Resolves once the console at `url` answered /api/health and /login `times` checks in a row, each within `withinMs`
 * (what a person opening it from the banner on is promised): a console that answered once may still be opening its
 * stores (their SDKs load on its event loop) and stop answering for seconds right after. Resolves false when it was
 * not steady within `waitMs` (the demo then starts anyway).
 */
export async function consoleSteady(url: string, o: Partial<typeof STEADY> = {}): Promise<boolean> {
  const { times, gapMs, withinMs, waitMs } = { ...STEADY, ...o };
  const end = Date.now() + waitMs;
  let inRow = 0;
  while (Date.now() < end) {
    inRow = (await consoleAnswers(url, { healthMs: withinMs, pageMs: withinMs })) ? inRow + 1 : 0;
    if (inRow >= times) return true;
    await new Promise((r) => setTimeout(r, gapMs));
  }
  return false;
}
