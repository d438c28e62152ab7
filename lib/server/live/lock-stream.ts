// The lock stream behind GET /api/locks/stream (Server-Sent Events), bounded at any number of locks: it names its
// query and sends that query's `snapshot` (the window of at most `limit` rows, counts, progress, and `complete` once
// every source has been listed whole), then a `change` for rows of the window that changed or went, `outside` with
// how many matching rows outside the window are new or changed (they never move under the reader's cursor), and
// `counts` (coalesced, at most once a second). A `tick` every 15 s carries the server's time (the keep-alive). A
// reconnect or a client that fell behind gets a `reset` and the window again, never the whole set. The stream ends
// at the session's expiry, when the user loses the role, and after LOCKBOARD_STREAM_MAX (4 m).
import 'server-only';
import { processWide } from '../process/process-wide';
import { randomBytes } from 'node:crypto';
import { resolveRole } from '../auth/auth';
import { env } from '../env';
import type { RouteUser } from '../http';
import { matcher, runQuery, type LockQuery } from '../../lock/query/query';
import { expand } from '../../lock/query/row';
import { consoleView, READY_MS, rowView, statusOf, windowOf } from '../locks';
import { metrics } from '../metrics/metrics';
import { isStopping, onStop } from '../process/shutdown';
import type { Source } from '../sources';
import { watcherFor, type SourceChange } from './watch';
import { openSse } from './sse';
import { signedOutNow } from '../auth/session-revocations';

const TICK_MS = 15_000;
const COUNTS_MS = 1_000;
/** Queued chunks a client may fall behind by before its changes are dropped for a reset. */
const MAX_QUEUED = 256;
const EPOCH = randomBytes(4).toString('hex'); // this process: an event id from another one means events were missed

const open = processWide('lockStreams', () => new Set<() => void>());
const endAll = () => {
  for (const end of [...open]) end();
};

export function lockStream(
  selection: { id: string; sources: Source[] },
  query: LockQuery,
  user: RouteUser,
  o: { lastEventId: string | null; signal: AbortSignal },
): ReadableStream<Uint8Array> {
  const operator = user.role === 'operator';
  const matches = matcher(query);
  const inWindow = new Set<string>();
  const key = (s: Source, name: string) => `${s.id}\u0000${name}`;
  const outside = { added: 0, changed: 0 };
  let countsDirty = false;
  let behind = false;
  let seq = 0;
  let matched = 0;
  /** The window held every matching row when sent: a new match joins it (nothing moves under a cursor). */
  let whole = false;

  const sse = openSse({
    onCancel: () => {
      open.delete(sse.close);
      metrics.streams.dec();
    },
  });
  const send = (name: string, data: unknown) => {
    metrics.sent.inc({ event: name });
    sse.write(`id: ${EPOCH}-${++seq}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const snapshot = () => {
    const w = windowOf(selection, query, operator);
    inWindow.clear();
    for (const l of w.locks)
      inWindow.add(`${selection.sources.find((s) => s.bucketId === l.bucket)?.id}\u0000${l.name}`);
    matched = w.matched;
    whole = w.nextCursor === undefined;
    outside.added = outside.changed = 0;
    countsDirty = false;
    send('snapshot', w);
  };
  /** The window's rows in the query's order (`bucket\0name`), sorted over those rows alone (at most `limit`). */
  const windowOrder = (): string[] => {
    const rows = selection.sources.map((src) => {
      const index = watcherFor(src).index;
      const mine = [...inWindow].filter((k) => k.startsWith(`${src.id}\u0000`)).map((k) => k.slice(src.id.length + 1));
      const found = mine.map((n) => index.rows.get(n)).filter((r) => r !== undefined);
      return { id: src.id, rows: found, counts: index.counts, size: found.length };
    });
    const ordered = runQuery(rows, { sort: query.sort, order: query.order, limit: query.limit });
    const bucketOf = new Map(selection.sources.map((src) => [src.id, src.bucketId]));
    return ordered.rows.map((r) => `${bucketOf.get(r.source)}\u0000${r.row.name}`);
  };
  const sendCounts = () => {
    if (!countsDirty || behind) return;
    countsDirty = false;
    send('counts', { ...statusOf(selection), matched, outside });
  };
  const onChange = (s: Source) => (change: SourceChange | null) => {
    countsDirty = true;
    if (behind || change === null) return;
    if (sse.queued < -MAX_QUEUED) {
      behind = true; // dropped from here: pull() sends a reset and the window again once the client has read
      return;
    }
    const upsert = [];
    const remove: string[] = [];
    let reorder = false;
    for (const { before, after } of change.changes) {
      const was = before !== undefined && matches(before);
      const is = after !== undefined && matches(after);
      matched += (is ? 1 : 0) - (was ? 1 : 0);
      const name = (after ?? before)!.name;
      if (inWindow.has(key(s, name))) {
        if (after && is) upsert.push(rowView(consoleView(s, expand(after), operator)));
        else remove.push(name);
      } else if (is && whole && inWindow.size < query.limit) {
        // a window that held every match takes a new one; `order` places it (nothing else moves)
        inWindow.add(key(s, name));
        upsert.push(rowView(consoleView(s, expand(after!), operator)));
        reorder = true;
      } else if (is) {
        if (was) outside.changed++;
        else outside.added++;
      }
    }
    if (upsert.length || remove.length) {
      const order = reorder ? windowOrder() : undefined;
      send('change', { source: s.id, bucket: s.bucketId, serverTime: change.serverTime, upsert, remove, order });
    }
  };

  return sse.stream(
    async () => {
      metrics.streams.inc();
      open.add(sse.close);
      onStop(endAll);
      if (isStopping()) return (sse.write('retry: 2000\n\n'), sse.close()); // the route closes this connection
      o.signal.addEventListener('abort', sse.close, { once: true });
      sse.write('retry: 1000\n\n'); // headers go out with the first chunk
      const ends = Math.min(Date.now() + (env().LOCKBOARD_STREAM_MAX ?? 240_000), user.expiresAt ?? Infinity);
      sse.after(Math.max(0, ends - Date.now()), sse.close);
      const tick = () => {
        // off the lists, another role now, or signed out (on any replica): the reconnect is judged again (401, 403, or
        // what the new role may see)
        if (resolveRole(user.email) !== user.role || signedOutNow(user.sid)) return sse.close();
        send('tick', { serverTime: statusOf(selection).serverTime });
        sse.after(TICK_MS, tick);
      };
      sse.after(TICK_MS, tick);
      const counts = () => {
        sendCounts();
        sse.after(COUNTS_MS, counts);
      };
      sse.after(COUNTS_MS, counts);
      for (const s of selection.sources) sse.onClose(watcherFor(s).subscribe(onChange(s)));
      // the same freshness as a query: a quick source is listed now, a big one answers from its index at once
      await Promise.all(selection.sources.map((s) => watcherFor(s).ready(READY_MS)));
      if (o.lastEventId) {
        // A reconnect: what happened in between is not replayed; the client starts again from this window
        metrics.resets.inc();
        send('reset', { reason: 'reconnected' });
      }
      snapshot();
    },
    () => {
      if (!behind) return;
      behind = false;
      metrics.resets.inc();
      send('reset', { reason: 'fell behind' });
      snapshot();
    },
  );
}
