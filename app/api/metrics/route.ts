// GET /api/metrics – Prometheus metrics (prom-client), bearer token LOCKBOARD_METRICS_TOKEN (every lock) or an API
// token of the access file (its sources and per-lock series within its grants only); no session. A source that
// cannot be listed is reported as lockboard_source_up 0, not as a failed scrape.
import { storeUnavailable } from '@/lib/lock/store-errors';
import { env } from '@/lib/server/env';
import { ApiError, errorResponse } from '@/lib/server/api-error';
import { tokenMatches } from '@/lib/server/http';
import { queryForConsole } from '@/lib/server/locks';
import {
  MAX_PER_LOCK_SERIES,
  METRICS_CONTENT_TYPE,
  renderMetrics,
  type SourceListing,
} from '@/lib/server/metrics/lock-gauges';
import { ALL_SOURCES, sources } from '@/lib/server/sources';
import { setHeldGauge } from '@/lib/server/metrics/held-gauge';
import { tokenAccess, viewerOf, type Access } from '@/lib/server/auth/access';
import { sourcesFor } from '@/lib/server/scoped-sources';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  try {
    const access = scraper(req);
    const viewer = access ? { scope: viewerOf(access).scope } : {};
    const listings: SourceListing[] = await Promise.all(
      (access ? sourcesFor(access) : sources()).map(async (source): Promise<SourceListing> => {
        try {
          const window = await queryForConsole(
            { id: source.id, sources: [source] },
            { sort: 'name', order: 'asc', limit: MAX_PER_LOCK_SERIES },
            viewer,
          );
          const state = window.sources[0];
          // a source that has never answered is down; one that stopped answering is down with its last counts kept
          if (state?.error && (!state.complete || state.error.at > (state.lastGoodRead ?? ''))) {
            return { source, error: state.error.message };
          }
          return { source, locks: window.locks, counts: window.counts, serverTime: window.serverTime };
        } catch (err) {
          return { source, error: storeUnavailable(err) ?? (err as Error).message };
        }
      }),
    );
    // the held-time series of the scraper's locks only (an API token's grants)
    const all = { id: ALL_SOURCES, sources: access ? sourcesFor(access) : sources() };
    await setHeldGauge(all.sources, env().LOCKBOARD_LOCK_GAUGE, (cursor, limit) =>
      queryForConsole(all, { sort: 'held', order: 'desc', limit, ...(cursor ? { cursor } : {}) }, viewer),
    ).catch(() => undefined); // a source that does not answer is reported by lockboard_source_up
    return new Response(await renderMetrics(listings), {
      headers: { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' },
    });
  } catch (err) {
    return errorResponse(err);
  }
}

/** The scraper: undefined for LOCKBOARD_METRICS_TOKEN (every lock), an API token's access, or 401/404. */
function scraper(req: Request): Access | undefined {
  const expected = env().LOCKBOARD_METRICS_TOKEN;
  const given = /^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1] ?? '';
  if (expected && tokenMatches(given, expected)) return undefined;
  const access = given ? tokenAccess(given) : null;
  if (access) return access;
  if (!expected) throw new ApiError('not_found', 'Metrics are disabled: set LOCKBOARD_METRICS_TOKEN to enable them.');
  throw new ApiError('unauthorized', 'Send Authorization: Bearer <LOCKBOARD_METRICS_TOKEN> (or an API token).');
}
