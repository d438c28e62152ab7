// GET /api/metrics – Prometheus metrics, bearer token LOCKBOARD_METRICS_TOKEN; no session
import { env } from '@/lib/server/env';
import { ApiError, errorResponse, tokenMatches } from '@/lib/server/http';
import { listForConsole } from '@/lib/server/locks';
import { renderMetrics, type SourceListing } from '@/lib/server/prometheus';
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
    const listings: SourceListing[] = [];
    for (const source of sources()) {
      const { locks, serverTime } = await listForConsole({ id: source.id, sources: [source] });
      listings.push({ source, locks, serverTime });
    }
    return new Response(renderMetrics(listings), {
      headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' },
    });
  } catch (err) {
    return errorResponse(err);
  }
}
