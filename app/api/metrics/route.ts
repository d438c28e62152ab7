// GET /api/metrics – Prometheus metrics (prom-client), bearer token LOCKBOARD_METRICS_TOKEN (every lock, and the
// process-wide series) or an API token of the access file (its sources and per-lock series within its grants only;
// the process-wide series only for a token over every lock); no session. A source that cannot be listed is reported
// as lockboard_source_up 0, not as a failed scrape.
import { storeUnavailable } from '@/lib/lock/store-errors';
import { env } from '@/lib/server/env';
import { ApiError, errorResponse } from '@/lib/server/api-error';
import { tokenMatches } from '@/lib/server/http';
import {
  MAX_PER_LOCK_SERIES,
  METRICS_CONTENT_TYPE,
  renderMetrics,
  scrapeGauges,
  type SourceListing,
} from '@/lib/server/metrics/lock-gauges';
import { ALL_SOURCES, type Source } from '@/lib/server/sources';
import { setHeldGauge } from '@/lib/server/metrics/held-gauge';
import { everyLockReader, isEveryLock, tokenAccess, type Access } from '@/lib/server/auth/access';
import { boardOf, type Board } from '@/lib/server/board';
import { setAccessGauge } from '@/lib/server/metrics/access-gauge';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  try {
    const board = boardOf(scraper(req));
    const mine = board.sources();
    const listings = await Promise.all(mine.map((source) => listingOf(board, source)));
    const gauges = scrapeGauges();
    // the held-time series of the scraper's locks only (an API token's grants)
    const all = { id: ALL_SOURCES, sources: mine };
    await setHeldGauge(gauges.held, all.sources, env().LOCKBOARD_LOCK_GAUGE, (cursor, limit) =>
      board.query(all, { sort: 'held', order: 'desc', limit, ...(cursor ? { cursor } : {}) }),
    ).catch(() => undefined); // a source that does not answer is reported by lockboard_source_up
    const processWide = isEveryLock(board.viewer.scope);
    if (processWide) setAccessGauge();
    return new Response(await renderMetrics(listings, gauges, processWide), {
      headers: { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' },
    });
  } catch (err) {
    return errorResponse(err);
  }
}

/** One source's counts and first locks within the scraper's grants, or why it could not be listed. */
async function listingOf(board: Board, source: Source): Promise<SourceListing> {
  try {
    const window = await board.query(
      { id: source.id, sources: [source] },
      { sort: 'name', order: 'asc', limit: MAX_PER_LOCK_SERIES },
    );
    const state = window.sources[0];
    // a source that has never answered is down; one that stopped answering is down with its last counts kept
    if (state?.error && (!state.complete || state.error.at > (state.lastGoodRead ?? ''))) {
      return { source, error: state.error.message };
    }
    return {
      source,
      locks: window.locks,
      counts: window.counts,
      verdicts: window.verdicts,
      serverTime: window.serverTime,
    };
  } catch (err) {
    return { source, error: storeUnavailable(err) ?? (err as Error).message };
  }
}

/** The scraper: every lock for LOCKBOARD_METRICS_TOKEN, an API token's access, or 401/404. */
function scraper(req: Request): Access {
  const expected = env().LOCKBOARD_METRICS_TOKEN;
  const given = /^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1] ?? '';
  if (expected && tokenMatches(given, expected)) return everyLockReader('metrics token');
  const access = given ? tokenAccess(given) : null;
  if (access) return access;
  if (!expected) throw new ApiError('not_found', 'Metrics are disabled: set LOCKBOARD_METRICS_TOKEN to enable them.');
  throw new ApiError('unauthorized', 'Send Authorization: Bearer <LOCKBOARD_METRICS_TOKEN> (or an API token).');
}
