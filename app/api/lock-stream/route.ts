// GET /api/lock-stream?name=N[&bucket=B] – Server-Sent Events of one lock for its page (lib/server/one-lock-stream):
// the lock as it changes, pushed through its source's watcher instead of polled. Viewer role; sensitive fields for
// operators only. An ended session is told as a `signed-out` event on a 200 stream, as on the list's stream.
import { z } from 'zod';
import { parseWith, withRole } from '@/lib/server/http';
import { oneLockStream } from '@/lib/server/one-lock-stream';
import { isStopping } from '@/lib/server/shutdown';
import { sourceOfLock } from '@/lib/server/sources';

export const dynamic = 'force-dynamic';

const query = z.object({ name: z.string().min(1).max(1024), bucket: z.string().max(222).optional() });
const HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  'x-accel-buffering': 'no',
};

const stream = withRole('viewer', async (req, { user }) => {
  const { name, bucket } = parseWith(query, Object.fromEntries(req.nextUrl.searchParams));
  const body = oneLockStream(sourceOfLock(name, bucket), name, user, { signal: req.signal });
  return new Response(body, { headers: isStopping() ? { ...HEADERS, connection: 'close' } : HEADERS });
});

export async function GET(...args: Parameters<typeof stream>): Promise<Response> {
  const res = await stream(...args);
  const wantsEvents = /text\/event-stream/.test(args[0].headers.get('accept') ?? '');
  if (res.status !== 401 || !wantsEvents) return res;
  const { error } = (await res.json()) as { error: { message: string } };
  const text = `retry: 60000\n\nevent: signed-out\ndata: ${JSON.stringify({ message: error.message })}\n\n`;
  return new Response(text, { headers: HEADERS });
}
