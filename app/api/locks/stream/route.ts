// GET /api/locks/stream[?source=S|all] – Server-Sent Events: a `snapshot` of the sources' locks, then a `change` for
// each lock added, changed or gone, from one shared watcher per source (not one listing per browser); keep-alive
// comments every 15 s. Viewer role, like every route; sensitive fields for operators only.
import { z } from 'zod';
import type { LockView } from '@/lib/lock/store';
import { parseWith, withRole } from '@/lib/server/http';
import { consoleView } from '@/lib/server/locks';
import { resolveSources, type Source } from '@/lib/server/sources';
import { watcherFor, type SourceChange } from '@/lib/server/watch';

export const dynamic = 'force-dynamic';

const query = z.object({ source: z.string().max(1100).optional() });
const KEEPALIVE_MS = 15_000;

export const GET = withRole('viewer', async (req, { user }) => {
  const { source } = parseWith(query, Object.fromEntries(req.nextUrl.searchParams));
  const selection = resolveSources(source);
  const operator = user.role === 'operator';
  const shown = (s: Source, lock: LockView) => consoleView(s, lock, operator);
  const encoder = new TextEncoder();
  const stops: (() => void)[] = [];
  let closed = false;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const cleanup = () => {
        if (closed) return;
        closed = true;
        for (const stop of stops) stop();
        clearInterval(keepalive);
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      };
      req.signal.addEventListener('abort', cleanup, { once: true });
      const keepalive = setInterval(() => send(': keep-alive\n\n'), KEEPALIVE_MS);
      send('retry: 3000\n\n'); // headers go out with the first chunk
      const snapshot: ReturnType<typeof shown>[] = [];
      let serverTime = '';
      try {
        for (const s of selection.sources) {
          const sub = await watcherFor(s).subscribe((change: SourceChange) =>
            send(event('change', { ...change, upsert: change.upsert.map((l) => shown(s, l)) })),
          );
          stops.push(sub.stop);
          snapshot.push(...sub.locks.map((l) => shown(s, l)));
          serverTime = sub.serverTime > serverTime ? sub.serverTime : serverTime;
        }
      } catch (err) {
        send(event('failure', { message: `Could not list ${selection.id}: ${(err as Error).message}` }));
        return cleanup();
      }
      send(event('snapshot', { source: selection.id, serverTime, locks: snapshot }));
    },
    cancel() {
      closed = true;
      for (const stop of stops) stop();
    },
  });
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      'x-accel-buffering': 'no',
    },
  });
});

function event(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}
