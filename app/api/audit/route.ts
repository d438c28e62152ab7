// GET /api/audit – audit events of a window (≤ 31 days), newest first, each with its source, `limit` (≤ 5 000, default
// 200) per page with a cursor; format=csv exports all; trails that could not be read are listed in `unreachable`, and
// trails their stores keep in memory only (lost on a restart of the server) in `memoryOnly`
import { toCsv } from '@/lib/console/churn/csv';
import { parseWindow } from '@/lib/server/audit/events';
import { ApiError, json } from '@/lib/server/api-error';
import { withRole } from '@/lib/server/http';

const PAGE = 200;
const MAX_PAGE = 5_000;

export const GET = withRole('viewer', async (req, { board }) => {
  const params = req.nextUrl.searchParams;
  const window = parseWindow(params);
  // only the events of locks in the caller's grants (the CSV export too)
  const { events: read, unreachable, memoryOnly } = await board.events(window);
  const all = read.filter((e) => !window.event || e.event === window.event);
  const newestFirst = [...all].reverse();
  if (params.get('format') === 'csv') {
    return new Response(toCsv(newestFirst), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="lockboard-audit-${window.from.toISOString()}-${window.to.toISOString()}.csv"`,
        'cache-control': 'no-store',
        // The export is of the trails that answered; the others are named so a partial file is never taken as whole
        ...(unreachable.length ? { 'x-lockboard-unreachable': unreachable.flatMap((f) => f.sources).join(', ') } : {}),
        // and the trails a restart of their server would lose, so an export is never taken as lasting where it is not
        ...(memoryOnly.length ? { 'x-lockboard-memory-only': memoryOnly.flatMap((f) => f.sources).join(', ') } : {}),
      },
    });
  }
  const cursor = params.get('cursor');
  const offset = cursor === null ? 0 : Number(cursor);
  if (!Number.isInteger(offset) || offset < 0)
    throw new ApiError('bad_request', '"cursor" must be a value returned as nextCursor.');
  const limitParam = params.get('limit');
  const limit = limitParam === null ? PAGE : Number(limitParam);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
    throw new ApiError('bad_request', `"limit" must be an integer from 1 to ${MAX_PAGE}.`);
  const events = newestFirst.slice(offset, offset + limit);
  const nextCursor = offset + limit < newestFirst.length ? String(offset + limit) : undefined;
  return json({
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    total: newestFirst.length,
    events,
    unreachable,
    memoryOnly,
    ...(nextCursor ? { nextCursor } : {}),
  });
});
