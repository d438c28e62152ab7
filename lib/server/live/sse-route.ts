// The Server-Sent Events routes' shared shell (the list's stream, a lock's stream): viewer role, event-stream headers,
// the connection closed when the process is stopping, and an ended session told as a `signed-out` event on a 200
// (EventSource gives a script no status, never retries a 401, and the browser would log a failed load).
import 'server-only';
import type { NextRequest } from 'next/server';
import { withRole } from '../http';
import type { Board } from '../board';
import { liveBoardOf, type LiveBoard } from './live-board';
import { isStopping } from '../process/shutdown';

const HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  'x-accel-buffering': 'no',
};

/** The stream route's opening: given the caller's board and its streams (never the bare stream functions). */
type Open = (req: NextRequest, board: Board & { live: LiveBoard }) => ReadableStream<Uint8Array>;

export function sseRoute(open: Open) {
  const stream = withRole('viewer', async (req, { user, board }) => {
    const body = open(req, { ...board, live: liveBoardOf(user) });
    // a process that is stopping ends the stream at once and closes the connection: a browser reconnecting every
    // second on a kept-alive socket would otherwise hold the server's graceful close open for as long as the tab is
    return new Response(body, { headers: isStopping() ? { ...HEADERS, connection: 'close' } : HEADERS });
  });
  return async function GET(...args: Parameters<typeof stream>): Promise<Response> {
    const res = await stream(...args);
    const wantsEvents = /text\/event-stream/.test(args[0].headers.get('accept') ?? '');
    if (res.status !== 401 || !wantsEvents) return res;
    const { error } = (await res.json()) as { error: { message: string } };
    // retry: a long pause, in case the page cannot navigate away; the event says why the stream ends
    const text = `retry: 60000\n\nevent: signed-out\ndata: ${JSON.stringify({ message: error.message })}\n\n`;
    return new Response(text, { headers: HEADERS });
  };
}
