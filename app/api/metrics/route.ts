// GET /api/metrics – Prometheus metrics (prom-client), bearer token LOCKBOARD_METRICS_TOKEN; no session. A source that
// cannot be listed is reported as lockboard_source_up 0, not as a failed scrape.
import { storeUnavailable } from '@/lib/lock/store-errors';
import { env } from '@/lib/server/env';
import { ApiError, errorResponse, tokenMatches } from '@/lib/server/http';
import { listForConsole } from '@/lib/server/locks';
import { METRICS_CONTENT_TYPE, renderMetrics, type SourceListing } from '@/lib/server/prometheus';
import { sources } from '@/lib/server/sources';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  try {
    const expected = env().LOCKBOARD_METRICS_TOKEN;
    if (!expected) throw new ApiError('not_found', 'Metrics are disabled: set LOCKBOARD_METRICS_TOKEN to enable them.');
    const given = /^Bearer (.+)$/.exec(req.headers.get('authorization') ?? '')?.[1] ?? '';
    if (!tokenMatches(given, expected)) {
      throw new ApiError('unauthorized', 'Send Authorization: Bearer <LOCKBOARD_METRICS_TOKEN>.');
    }
    const listings: SourceListing[] = await Promise.all(
      sources().map(async (source): Promise<SourceListing> => {
        try {
          const { locks, serverTime } = await listForConsole({ id: source.id, sources: [source] });
          return { source, locks, serverTime };
        } catch (err) {
          return { source, error: storeUnavailable(err) ?? (err as Error).message };
        }
      }),
    );
    return new Response(await renderMetrics(listings), {
      headers: { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' },
    });
  } catch (err) {
    return errorResponse(err);
  }
}
