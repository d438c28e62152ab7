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
import { viewerOf } from '../auth/access';
import { env } from '../env';
import type { RouteUser } from '../http';
import { matcher, runQuery, type LockQuery } from '../../lock/query/query';
import { expand } from '../../lock/query/row';
import type { Row } from '../../lock/query/lock-index';
import { consoleView, READY_MS, rowView, windowOf, type Viewer } from '../locks';
import { serverTimeOf, statusOf, withinOf } from '../lock-status';
import { metrics } from '../metrics/metrics';
import { isStopping, onStop } from '../process/shutdown';
import { sourceContains, type Source } from '../sources';
import { watcherFor, type SourceChange } from './watch';
import { openSse, type Sse } from './sse';
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

/** What the stream knows of the window it sent: its rows by `source\0name`, and the counts beside it. */
interface WindowState {
  inWindow: Set<string>;
  /** Rows of the window that went (released): back under the same name, the client needs `order` to place them. */
  departed: Set<string>;
  outside: { added: number; changed: number };
  matched: number;
  /** The window held every matching row when sent: a new match joins it (nothing moves under a cursor). */
  whole: boolean;
}

const keyOf = (s: Source, name: string) => `${s.id}\u0000${name}`;

/** One source's change applied to the window: the rows to send, and whether the client must re-place rows. */
function changeOfWindow(
  w: WindowState,
  s: Source,
  change: SourceChange,
  matches: (row: NonNullable<SourceChange['changes'][number]['after']>) => boolean,
  o: { sensitive: Viewer['sensitive']; release: Viewer['release']; limit: number },
) {
  const upsert = [];
  const remove: string[] = [];
  let reorder = false;
  for (const { before, after } of change.changes) {
    const was = before !== undefined && matches(before);
    const is = after !== undefined && matches(after);
    w.matched += (is ? 1 : 0) - (was ? 1 : 0);
    const name = (after ?? before)!.name;
    const key = keyOf(s, name);
    if (w.inWindow.has(key)) {
      if (after && is) {
        upsert.push(rowView(consoleView(s, expand(after, true), o.sensitive, o.release)));
        // a row that went and came back under its name (released, then re-acquired) is new to the client
        if (w.departed.delete(key)) reorder = true;
      } else {
        remove.push(name);
        w.departed.add(key);
      }
    } else if (is && w.whole && w.inWindow.size < o.limit) {
      // a window that held every match takes a new one; `order` places it (nothing else moves)
      w.inWindow.add(key);
      upsert.push(rowView(consoleView(s, expand(after!, true), o.sensitive, o.release)));
      reorder = true;
    } else if (is) {
      if (was) w.outside.changed++;
      else w.outside.added++;
    }
  }
  return { upsert, remove, reorder };
}

/** Whether a row change lies within a scope (before or after it). */
function touches(c: SourceChange['changes'][number], within: (row: Row) => boolean): boolean {
  return (c.before !== undefined && within(c.before)) || (c.after !== undefined && within(c.after));
}

/**
 * The selection's source a window row is from: the most specific of its bucket's sources holding its name (two
 * sources of one bucket, gs://b/locks/ and gs://b/ci/, are told apart; the first of the bucket would take both).
 */
function sourceIdOf(sources: Source[], l: { bucket: string; name: string }): string | undefined {
  const holding = sources.filter((s) => s.bucketId === l.bucket && sourceContains(s, l.name));
  return holding.sort((a, b) => b.prefix.length - a.prefix.length)[0]?.id;
}

/** The window's rows in the query's order (`bucket\0name`), sorted over those rows alone (at most `limit`). */
function windowOrder(selection: { sources: Source[] }, inWindow: Set<string>, query: LockQuery): string[] {
  const rows = selection.sources.map((src) => {
    const index = watcherFor(src).index;
    const mine = [...inWindow].filter((k) => k.startsWith(`${src.id}\u0000`)).map((k) => k.slice(src.id.length + 1));
    const found = mine.map((n) => index.rows.get(n)).filter((r) => r !== undefined);
    return { id: src.id, rows: found, counts: index.counts, verdicts: index.verdicts, size: found.length };
  });
  const ordered = runQuery(rows, { sort: query.sort, order: query.order, limit: query.limit });
  const bucketOf = new Map(selection.sources.map((src) => [src.id, src.bucketId]));
  return ordered.rows.map((r) => `${bucketOf.get(r.source)}\u0000${r.row.name}`);
}

/** The stream's timers: the session's end, the tick that re-judges the role, and coalesced counts. */
function startTimers(
  sse: Sse,
  user: RouteUser,
  selection: { sources: Source[] },
  o: {
    serverTime: () => string;
    send: (name: string, data: unknown) => void;
    sendCounts: () => void;
  },
) {
  const ends = Math.min(Date.now() + (env().LOCKBOARD_STREAM_MAX ?? 240_000), user.expiresAt ?? Infinity);
  sse.after(Math.max(0, ends - Date.now()), sse.close);
  const tick = () => {
    // off the lists, another role now, or signed out (on any replica): the reconnect is judged again (401, 403, or
    // what the new role may see)
    if (!user.unchanged() || signedOutNow(user.sid)) return sse.close();
    o.send('tick', { serverTime: o.serverTime() });
    sse.after(TICK_MS, tick);
  };
  sse.after(TICK_MS, tick);
  const counts = () => {
    // grants withdrawn (a token removed from the access file, the file deleted): ended within a second, not a tick
    if (!user.unchanged()) return sse.close();
    o.sendCounts();
    sse.after(COUNTS_MS, counts);
  };
  sse.after(COUNTS_MS, counts);
}

const emptyWindow = (): WindowState => ({
  inWindow: new Set(),
  departed: new Set(),
  outside: { added: 0, changed: 0 },
  matched: 0,
  whole: false,
});

/** The query's match within the reader's grants on one source (only rows in scope are matched, sent or counted). */
function scopedMatcher(query: LockQuery, scope: Parameters<typeof withinOf>[1]) {
  const match = matcher(query);
  return (s: Source) => {
    const within = withinOf(s, scope);
    return within ? (row: Row) => within(row) && match(row) : match;
  };
}

export function lockStream(
  selection: { id: string; sources: Source[] },
  query: LockQuery,
  user: RouteUser,
  o: { lastEventId: string | null; signal: AbortSignal },
): ReadableStream<Uint8Array> {
  // only rows in the reader's grants are ever matched, sent or counted
  const viewer = viewerOf(user.access);
  const matchesIn = scopedMatcher(query, viewer.scope);
  const w = emptyWindow();
  let countsDirty = false;
  let behind = false;
  let seq = 0;

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
    const win = windowOf(selection, query, viewer);
    w.inWindow.clear();
    w.departed.clear();
    for (const l of win.locks) w.inWindow.add(`${sourceIdOf(selection.sources, l)}\u0000${l.name}`);
    w.matched = win.matched;
    w.whole = win.nextCursor === undefined;
    w.outside.added = w.outside.changed = 0;
    countsDirty = false;
    send('snapshot', win);
  };
  const sendCounts = () => {
    if (!countsDirty || behind) return;
    countsDirty = false;
    send('counts', { ...statusOf(selection, viewer.scope), matched: w.matched, outside: w.outside });
  };
  const onChange = (s: Source) => {
    const within = withinOf(s, viewer.scope);
    return (change: SourceChange | null) => {
      // a change outside the reader's scope sends nothing, not even counts (their timing would tell of it)
      const mine = within === undefined || change === null || change.changes.some((c) => touches(c, within));
      if (mine) countsDirty = true;
      if (mine) apply(s, change);
    };
  };
  const apply = (s: Source, change: SourceChange | null) => {
    if (behind || change === null) return;
    if (sse.queued < -MAX_QUEUED) {
      behind = true; // dropped from here: pull() sends a reset and the window again once the client has read
      return;
    }
    const { upsert, remove, reorder } = changeOfWindow(w, s, change, matchesIn(s), {
      sensitive: viewer.sensitive,
      release: viewer.release,
      limit: query.limit,
    });
    if (upsert.length || remove.length) {
      const order = reorder ? windowOrder(selection, w.inWindow, query) : undefined;
      send('change', { source: s.id, bucket: s.bucketId, serverTime: change.serverTime, upsert, remove, order });
    }
  };

  return sse.stream(
    () => begin(sse, selection, user, o, { send, sendCounts, snapshot, onChange }),
    () => {
      if (!behind) return;
      behind = false;
      metrics.resets.inc();
      send('reset', { reason: 'fell behind' });
      snapshot();
    },
  );
}

/** The stream's opening: registered for shutdown, its timers, a subscription per source, then the first window. */
async function begin(
  sse: Sse,
  selection: { id: string; sources: Source[] },
  user: RouteUser,
  o: { lastEventId: string | null; signal: AbortSignal },
  h: {
    send: (name: string, data: unknown) => void;
    sendCounts: () => void;
    snapshot: () => void;
    onChange: (s: Source) => (change: SourceChange | null) => void;
  },
): Promise<void> {
  metrics.streams.inc();
  open.add(sse.close);
  onStop(endAll);
  if (isStopping()) return (sse.write('retry: 2000\n\n'), sse.close()); // the route closes this connection
  o.signal.addEventListener('abort', sse.close, { once: true });
  sse.write('retry: 1000\n\n'); // headers go out with the first chunk
  const serverTime = () => serverTimeOf(selection.sources);
  startTimers(sse, user, selection, { serverTime, send: h.send, sendCounts: h.sendCounts });
  for (const s of selection.sources) sse.onClose(watcherFor(s).subscribe(h.onChange(s)));
  // the same freshness as a query: a quick source is listed now, a big one answers from its index at once
  await Promise.all(selection.sources.map((s) => watcherFor(s).ready(READY_MS)));
  if (o.lastEventId) {
    // A reconnect: what happened in between is not replayed; the client starts again from this window
    metrics.resets.inc();
    h.send('reset', { reason: 'reconnected' });
  }
  h.snapshot();
}
