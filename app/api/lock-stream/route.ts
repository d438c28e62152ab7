// GET /api/lock-stream?name=N[&bucket=B] – Server-Sent Events of one lock for its page (lib/server/live/one-lock-stream):
// the lock as it changes, pushed through its source's watcher instead of polled. Viewer role; sensitive fields for
// operators only. An ended session is told as a `signed-out` event on a 200 stream, as on the list's stream.
import { lockStreamQuery as query } from '@/lib/server/api-schemas';
import { parseWith } from '@/lib/server/request-body';
import { sourceOfLock } from '@/lib/server/sources';
import { sseRoute } from '@/lib/server/live/sse-route';

export const dynamic = 'force-dynamic';

export const GET = sseRoute((req, board) => {
  const { name, bucket } = parseWith(query, Object.fromEntries(req.nextUrl.searchParams));
  return board.live.lock(sourceOfLock(name, bucket), name, { signal: req.signal });
});
