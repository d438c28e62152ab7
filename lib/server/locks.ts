// Console-side lock queries shared by the locks route, the metrics route and server prefetching: every store through
// its LockStore and the one list cache.
import 'server-only';
import type { VerdictCounts } from '@/lib/lock/verdict/verdict';
import { withoutSensitive, type InspectOptions, type LockView } from '@/lib/lock/store';
import { ApiError } from './api-error';
import { partnersOf } from './pairs';
import { storeFor } from './stores';
import type { HealthCounts, IndexRow } from '../lock/query/lock-index';
import { expand } from '../lock/query/row';
import { decodeCursor, runQuery, type LockQuery } from '../lock/query/query';
import { rowView as windowRow } from '../lock/query/row-view';
import type { SourceState } from './listing-status';
import { latest, scopedPass } from './lock-status';
import { watcherFor } from './live/watch';
import type { Source } from './sources';
import { lockAddress } from '../lock/address';
import { inScope, type Scope } from './auth/access';

/**
 * What a caller may see: `scope` the locks at all (EVERY_LOCK said explicitly, never by leaving it out), `sensitive`
 * the sensitive fields of which (a boolean for every lock in scope alike). Built from the caller's access (viewerOf).
 */
export interface Viewer {
  scope: Scope;
  sensitive: boolean | ((address: string) => boolean);
  /** Whether the caller may release this lock (their release grants, a releaser's rule); absent: not judged here. */
  release?: MayRelease;
}

/** Whether a caller may release the lock at `address` as it is now. */
type MayRelease = (address: string, view: { health: string; verdict?: unknown }) => boolean;

/**
 * A lock as the console shows it: `bucket` names the source's container as requests name it, `address` the lock as
 * grants and the CLI name it (lib/lock/address.ts).
 */
type ConsoleLock = Omit<LockView, 'sensitive'> & { sensitive?: [string, string][]; address: string };

/** A row of a window: a lock without its format's shared sentences (lib/server/locks.ts rowView). */
type ConsoleRow = Omit<ConsoleLock, 'terms'> & { terms?: ConsoleLock['terms'] };

/** A window of the selection's locks, as the server's index answers a query (lib/server/index/query.ts). */
interface LocksResponse {
  serverTime: string;
  /** The source listed (`gs://bucket/prefix`) or "all". */
  source: string;
  /** Bucket and prefix of a single-source listing. */
  bucket?: string;
  prefix?: string;
  /** The window: at most `limit` rows after the cursor, filtered and sorted over every lock the index holds. */
  locks: ConsoleRow[];
  /** Locks matching the filter, over the whole selection. */
  matched: number;
  /** Locks in the selection. */
  total: number;
  /** Locks by health over the whole selection (not only the window). */
  counts: HealthCounts;
  /** Counts by the holder's verdict over the whole selection (judged locks only). */
  verdicts?: VerdictCounts;
  /** Objects under the source(s) that are not locks (data, unrecognised, audit events): never listed or releasable. */
  skipped: number;
  /** The next window's cursor; absent at the end of the matched set. */
  nextCursor?: string;
  /** Every source has been listed whole at least once: counts and filters cover every lock. */
  complete: boolean;
  /** Not complete yet: a first pass is still walking some source (its progress is in `sources`). */
  partial?: boolean;
  /** Each source's listing: progress, the last good read, and the store's own words when it does not answer. */
  sources: SourceState[];
}

/** What the console shows of a lock: read-only sources marked, sensitive fields for those who may see them only. */
export function consoleView(
  source: Source,
  view: LockView | IndexRow,
  seesSensitive: Viewer['sensitive'],
  mayRelease?: MayRelease,
): ConsoleLock {
  const address = lockAddress(source, view.name);
  const sees = typeof seesSensitive === 'function' ? seesSensitive(address) : seesSensitive === true;
  const shown = (sees ? view : withoutSensitive(view as LockView)) as Omit<ConsoleLock, 'address'>;
  // a lock the caller's grants do not let them release offers no release (the route refuses it all the same)
  if (!source.readOnly && shown.releasable && mayRelease && !mayRelease(address, view))
    return { ...shown, bucket: source.bucketId, address, releasable: false, releaseNote: NOT_YOURS };
  return source.readOnly
    ? {
        ...shown,
        bucket: source.bucketId,
        address,
        releasable: false,
        releaseNote: `Read-only source: ${source.readOnly}`,
      }
    : { ...shown, bucket: source.bucketId, address };
}

const NOT_YOURS =
  'Your grants do not let you release this lock (a releaser only once it has expired or its holder is gone).';

/**
 * A window's row: what the table paints, without the sentences every lock of a format shares (the store's terms, the
 * release note): the lock page and the release dialog read the whole lock. Keeps a window of 100 under 100 KB.
 */
export function rowView(lock: ConsoleLock): ConsoleRow {
  return windowRow(lock);
}

/** A query waits at most this long for a source (its first page, a quick pass), never for a big source's whole pass. */
export const READY_MS = 1_500;

/**
 * One window of the selection from the sources' indexes (each source listed by its watcher, page by page): the same
 * query serves the locks route, the page's first screen, the stream, bulk release and the metrics.
 */
export async function queryForConsole(
  selection: { id: string; sources: Source[] },
  query: LockQuery,
  o: Viewer,
): Promise<LocksResponse> {
  if (query.cursor && !decodeCursor(query.cursor))
    throw new ApiError('bad_request', 'cursor is not one this console gave: start again without it.');
  const watchers = selection.sources.map((s) => ({ source: s, w: watcherFor(s) }));
  await Promise.all(watchers.map(({ w }) => w.ready(READY_MS)));
  const window = windowOf(selection, query, o);
  // every source failed its last pass: the store's own words as a 503 (one that answers keeps the rest listed)
  const failed = window.sources.filter((st) => st.error && !(st.lastGoodRead && st.lastGoodRead > st.error.at));
  if (failed.length === window.sources.length && failed[0]?.error) {
    throw new ApiError('storage_unavailable', failed.map((st) => `${st.source}: ${st.error!.message}`).join('; '));
  }
  return window;
}

/** The window as the indexes hold it now (no waiting): the stream's snapshot and resets. */
export function windowOf(selection: { id: string; sources: Source[] }, query: LockQuery, viewer: Viewer) {
  const pass = scopedPass(selection.sources, viewer.scope);
  const result = runQuery(pass.indexed, query);
  const sensitive = viewer.sensitive;
  const byId = new Map(selection.sources.map((s) => [s.id, s]));
  const states = pass.states();
  const complete = states.every((st) => st.complete);
  const single = selection.sources.length === 1 ? selection.sources[0]! : undefined;
  const response: LocksResponse = {
    serverTime: latest(states),
    source: selection.id,
    ...(single ? { bucket: single.bucketId, prefix: single.prefix } : {}),
    locks: result.rows.map(({ source, row }) =>
      rowView(consoleView(byId.get(source)!, expand(row, true), sensitive, viewer.release)),
    ),
    matched: result.matched,
    total: result.total,
    counts: result.counts,
    verdicts: result.verdicts,
    skipped: states.reduce((n, st) => n + st.skipped, 0),
    ...(result.nextCursor ? { nextCursor: result.nextCursor } : {}),
    complete,
    ...(complete ? {} : { partial: true }),
    sources: states,
  };
  return response;
}

/**
 * One lock (or what is there instead) with the server time it was judged at, on that store's clock. A lock outside
 * the viewer's scope answers exactly as one that does not exist: the store is asked all the same (the same time).
 */
export async function getForConsole(
  source: Source,
  name: string,
  v: Viewer,
  inspect: InspectOptions = {},
): Promise<
  (ConsoleLock & { serverTime: string }) | { name: string; bucket: string; absent: true; serverTime: string }
> {
  const store = await storeFor(source);
  const found = await store.inspect(name, inspect);
  const view = found && inScope(v.scope, lockAddress(source, name)) ? found : null;
  const serverTime = new Date(store.now()).toISOString();
  if (!view) return { name, bucket: source.bucketId, absent: true, serverTime };
  const shown = consoleView(source, view, v.sensitive, v.release);
  // the same lock kept in another store: shown beside it (and released with it)
  const partners = (await partnersOf(view, source).catch(() => [])).filter(({ source: s, lock }) =>
    inScope(v.scope, lockAddress(s, lock.name)),
  );
  if (partners.length)
    shown.details = [
      ...shown.details,
      ...partners.map(({ source: s, lock }): [string, string] => [
        'Also held in',
        `${s.id} ${lock.name} (${lock.versionLabel}): released with this one, by its own condition`,
      ]),
    ];
  return { ...shown, serverTime };
}
