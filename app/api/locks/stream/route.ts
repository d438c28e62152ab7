// GET /api/locks/stream[?source=S|all&q&health&sort&order&limit] – Server-Sent Events of one window of the locks the
// user may see (lib/server/live/lock-stream): snapshot, changes in the window, counts, ticks, resets. Viewer role like
// every route; sensitive fields for operators only. An ended session is told as a `signed-out` event (sse-route.ts).
import { lockQueryOf } from '@/lib/server/lock-query';
import { sseRoute } from '@/lib/server/live/sse-route';

export const dynamic = 'force-dynamic';

export const GET = sseRoute((req, board) => {
  const { source, prefix, query } = lockQueryOf(Object.fromEntries(req.nextUrl.searchParams));
  return board.live.stream(board.select(source, prefix), query, {
    lastEventId: req.headers.get('last-event-id'),
    signal: req.signal,
  });
});
