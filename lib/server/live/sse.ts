// A Server-Sent Events body: writes that never throw after the client left, timers and subscriptions ended with it.
import 'server-only';

export interface Sse {
  write(text: string): void;
  /** How far the client is behind (the stream's desiredSize: negative when chunks are queued). */
  readonly queued: number;
  after(ms: number, fn: () => void): void;
  onClose(fn: () => void): void;
  close(): void;
  stream(start: () => Promise<void> | void, pull: () => void): ReadableStream<Uint8Array>;
}

export function openSse(o: { onCancel: () => void }): Sse {
  const encoder = new TextEncoder();
  const stops: (() => void)[] = [];
  const timers: NodeJS.Timeout[] = [];
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let closed = false;
  const sse: Sse = {
    write(text) {
      if (closed || !controller) return;
      try {
        controller.enqueue(encoder.encode(text));
      } catch {
        sse.close();
      }
    },
    get queued() {
      return controller?.desiredSize ?? 0;
    },
    after(ms, fn) {
      if (!closed) timers.push(setTimeout(fn, ms));
    },
    onClose(fn) {
      if (closed) fn();
      else stops.push(fn);
    },
    close() {
      if (closed) return;
      closed = true;
      o.onCancel();
      for (const stop of stops) stop();
      for (const t of timers) clearTimeout(t);
      try {
        controller?.close();
      } catch {
        // already closed by the client going away
      }
    },
    stream(start, pull) {
      return new ReadableStream<Uint8Array>({
        async start(c) {
          controller = c;
          await start();
        },
        pull() {
          if (!closed) pull();
        },
        cancel() {
          sse.close();
        },
      });
    },
  };
  return sse;
}
