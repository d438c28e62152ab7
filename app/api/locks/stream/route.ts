// GET /api/locks/stream[?source=S|all] – Server-Sent Events of the locks the user may see (lib/server/lock-stream):
// snapshot, changes, ticks, resets. Viewer role like every route; sensitive fields for operators only.
import { z } from 'zod';
import { parseWith, withRole } from '@/lib/server/http';
import { lockStream } from '@/lib/server/lock-stream';
import { resolveSources } from '@/lib/server/sources';

export const dynamic = 'force-dynamic';

const query = z.object({ source: z.string().max(1100).optional() });

export const GET = withRole('viewer', async (req, { user }) => {
  const { source } = parseWith(query, Object.fromEntries(req.nextUrl.searchParams));
  const stream = lockStream(resolveSources(source), user, {
    lastEventId: req.headers.get('last-event-id'),
    signal: req.signal,
  });
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      'x-accel-buffering': 'no',
    },
  });
});
