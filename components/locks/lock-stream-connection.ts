// One locks stream's connection: an EventSource on /api/locks/stream, its events handed to the cache writers. A stream
// the server refused (401, 403, 503: EventSource never retries those) falls back to polling and is opened again with
// backoff; a dropped connection reconnects by itself; a tab hidden a while gives its connection back and opens again,
// with a fresh window, when it is shown.
import type { LocksData } from '@/lib/console/queries';
import { signInAgain } from '../get-query-client';
import type { Change, StreamWriters } from './lock-stream-cache';

/** live: pushed by the server; connecting: opening or reconnecting; polling: no stream, the list polls. */
export type LiveState = 'connecting' | 'live' | 'polling';

/** A tab hidden this long closes its stream (30 s; a browser test shortens it with window.__lockboardHiddenCloseMs). */
const hiddenCloseMs = () => (globalThis as { __lockboardHiddenCloseMs?: number }).__lockboardHiddenCloseMs ?? 30_000;
/** Not live this long after opening: poll meanwhile (a proxy that buffers the stream, say). */
const OPEN_TIMEOUT_MS = 10_000;

const parse = <T>(e: Event): T => JSON.parse((e as MessageEvent<string>).data) as T;

/** Opens the stream at `url`; returns what closes it for good. `refused` lets the poll say why (a 401 signs in). */
export function connectLockStream(
  url: string,
  on: { write: StreamWriters; setState: (fn: LiveState | ((s: LiveState) => LiveState)) => void; refused: () => void },
): () => void {
  let es: EventSource | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let opening: ReturnType<typeof setTimeout> | undefined;
  let refusals = 0;
  const fallBack = () => {
    es?.close();
    on.setState('polling');
    on.refused();
    retry = setTimeout(open, Math.min(60_000, 2_000 * 2 ** Math.min(refusals++, 5)));
  };
  const open = () => {
    es = new EventSource(url);
    opening = setTimeout(() => on.setState('polling'), OPEN_TIMEOUT_MS);
    es.addEventListener('snapshot', (e) => {
      clearTimeout(opening);
      refusals = 0;
      on.setState('live');
      on.write.snapshot(parse<LocksData>(e));
    });
    es.addEventListener('change', (e) => on.write.change(parse<Change>(e)));
    es.addEventListener('counts', (e) => on.write.counts(parse<Omit<LocksData, 'locks'>>(e)));
    es.addEventListener('tick', (e) => on.write.tick(parse<{ serverTime: string }>(e).serverTime));
    es.addEventListener('failure', fallBack);
    es.addEventListener('signed-out', () => {
      es?.close();
      signInAgain();
    });
    es.onerror = () => {
      // CLOSED: refused, never retried by the browser; CONNECTING: it is reconnecting by itself
      if (es?.readyState === EventSource.CLOSED) fallBack();
      else on.setState((s) => (s === 'live' ? 'connecting' : s));
    };
  };
  const close = () => {
    es?.close();
    clearTimeout(retry);
    clearTimeout(opening);
  };
  open();
  const stopWatching = reopenWhenShown({
    hide: () => {
      close();
      es = undefined;
    },
    show: () => {
      if (es && es.readyState !== EventSource.CLOSED) return;
      clearTimeout(retry);
      on.setState('connecting');
      open();
    },
  });
  return () => {
    stopWatching();
    close();
  };
}

/** A tab left in the background gives its connection back (`hide`, after a while); back in view, `show`. */
function reopenWhenShown(o: { hide: () => void; show: () => void }): () => void {
  let hidden: ReturnType<typeof setTimeout> | undefined;
  const onVisibility = () => {
    clearTimeout(hidden);
    if (document.visibilityState === 'hidden') hidden = setTimeout(o.hide, hiddenCloseMs());
    else o.show();
  };
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    document.removeEventListener('visibilitychange', onVisibility);
    clearTimeout(hidden);
  };
}
