// GET /api/locks/stream[?source=S|all&q&health&sort&order&limit] – Server-Sent Events of one window of the locks the
// user may see (lib/server/lock-stream): snapshot, changes in the window, counts, ticks, resets. Viewer role like every route; sensitive fields for operators only. A session
// that has ended is told as an event on a 200 stream (`signed-out`), not a 401: EventSource gives a script no status,
// never retries a 401, and the browser would log it as a failed load; the page goes to sign-in instead.
import { withRole } from '@/lib/server/http';
import { lockQueryOf } from '@/lib/server/lock-query';
import { lockStream } from '@/lib/server/lock-stream';
import { isStopping } from '@/lib/server/shutdown';
import { resolveSources } from '@/lib/server/sources';

export const dynamic = 'force-dynamic';

const HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  'x-accel-buffering': 'no',
};

const stream = withRole('viewer', async (req, { user }) => {
  const { source, prefix, query } = lockQueryOf(Object.fromEntries(req.nextUrl.searchParams));
  const body = lockStream(resolveSources(source, prefix), query, user, {
    lastEventId: req.headers.get('last-event-id'),
    signal: req.signal,
  });
  // A process that is stopping ends the stream at once and closes the connection: a browser reconnecting every
  // second on a kept-alive socket would otherwise hold the server's graceful close open for as long as the tab is.
  return new Response(body, { headers: isStopping() ? { ...HEADERS, connection: 'close' } : HEADERS });
});

export async function GET(...args: Parameters<typeof stream>): Promise<Response> {
  const res = await stream(...args);
  const wantsEvents = /text\/event-stream/.test(args[0].headers.get('accept') ?? '');
  if (res.status !== 401 || !wantsEvents) return res;
  const { error } = (await res.json()) as { error: { message: string } };
  // retry: a long pause, in case the page cannot navigate away; the event says why the stream ends
  const text = `retry: 60000\n\nevent: signed-out\ndata: ${JSON.stringify({ message: error.message })}\n\n`;
  return new Response(text, { headers: HEADERS });
}
