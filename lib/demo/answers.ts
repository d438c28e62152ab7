// When the demo may print its banner: once the console answers what a person opens first (its login page) as well as
// its health check, each within a bound. A console whose /api/health had answered once was announced while /login
// still timed out (issue #62); the login page's first answer also warms it for the person who opens it.

const HEALTH_MS = 1_000;
const PAGE_MS = 10_000;

async function answers(url: string, ms: number): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(ms), redirect: 'manual' });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false; // not listening yet, or not within `ms`
  }
}

/** Whether the console at `url` answers /api/health and /login now (`pageMs`: how long the page may take). */
export async function consoleAnswers(url: string, o: { pageMs?: number } = {}): Promise<boolean> {
  return (await answers(`${url}/api/health`, HEALTH_MS)) && (await answers(`${url}/login`, o.pageMs ?? PAGE_MS));
}
