// Reading GET /api/locks/stream as a browser would, calling the route handler directly: events parsed as they come.
import type { NextRequest } from 'next/server';
import { request, type CallOptions } from './routes';

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, never>> }) => Promise<Response>;

export interface StreamEvent {
  id?: string;
  event: string;
  data: Record<string, unknown>;
}

export async function openStream(handler: Handler, as: string, opts: CallOptions & { path?: string } = {}) {
  const abort = new AbortController();
  const req = await request(opts.path ?? '/api/locks/stream', { ...opts, as });
  const res = await handler(new (req.constructor as typeof Request)(req, { signal: abort.signal }) as NextRequest, {
    params: Promise.resolve({}),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = false;
  const events: StreamEvent[] = [];
  const all: StreamEvent[] = [];
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return void (ended = true);
      buffer += decoder.decode(value);
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const name = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        const id = /^id: (.*)$/m.exec(block)?.[1];
        if (!name || !data) continue;
        const e = { event: name, data: JSON.parse(data) as Record<string, unknown>, ...(id ? { id } : {}) };
        events.push(e);
        all.push(e);
      }
    }
  })();
  /** The next event of this name (taken off the queue), or a failure naming what came instead. */
  const next = async (name: string, timeoutMs = 6_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = events.findIndex((e) => e.event === name);
      if (i >= 0) return events.splice(i, 1)[0]!.data;
      if (Date.now() > deadline)
        throw new Error(`no ${name} event within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  /**
   * Resolves when `name` is shown: in a `change`'s rows, or in a `snapshot` (a window that held every match takes a
   * new one in its sorted place by sending the window again).
   */
  const shown = async (name: string, timeoutMs = 6_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = events.findIndex(
        (e) =>
          (e.event === 'change' && (e.data.upsert as { name: string }[]).some((l) => l.name === name)) ||
          (e.event === 'snapshot' && (e.data.locks as { name: string }[]).some((l) => l.name === name)),
      );
      if (i >= 0) return events.splice(0, i + 1)[i]!.data;
      if (Date.now() > deadline)
        throw new Error(`${name} not shown within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return {
    res,
    next,
    shown,
    /** Every event received so far, in order. */
    all,
    ended: () => ended,
    close: async () => (abort.abort(), await reader.cancel().catch(() => undefined), await pump),
  };
}
