// GET /api/locks/stream[?source=S|all&q&health&sort&order&limit] – Server-Sent Events of one window of the locks the
// user may see (lib/server/live/lock-stream): snapshot, changes in the window, counts, ticks, resets. Viewer role like
// every route; sensitive fields for operators only. An ended session is told as a `signed-out` event (sse-route.ts).
import { lockQueryOf } from '@/lib/server/lock-query';
import { lockStream } from '@/lib/server/live/lock-stream';
import { resolveSourcesFor } from '@/lib/server/scoped-sources';
import { sseRoute } from '@/lib/server/live/sse-route';

export const dynamic = 'force-dynamic';

export const GET = sseRoute((req, user) => {
  const { source, prefix, query } = lockQueryOf(Object.fromEntries(req.nextUrl.searchParams));
  return lockStream(resolveSourcesFor(user.access, source, prefix), query, user, {
    lastEventId: req.headers.get('last-event-id'),
    signal: req.signal,
  });
});
