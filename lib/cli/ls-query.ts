// lockboard ls at any size: with --filter, --health, --sort or --limit the source is walked page by page into the
// same lean index the console keeps (lib/lock/query) and one window is printed; --json without them streams one lock
// per line once a source holds more than STREAM_AT locks (constant memory), and prints the usual document below that.
import { LOCK_HEALTHS, type LockHealth } from '../lock/types';
import { isVerdict, VERDICTS, type Verdict } from '../lock/verdict/verdict';
import { LockIndex } from '../lock/query/lock-index';
import { DEFAULT_LIMIT, runQuery, SORT_KEYS, type IndexSortKey, type LockQuery } from '../lock/query/query';
import { expand } from '../lock/query/row';
import type { LockStore, LockView } from '../lock/store';
import { UsageError } from './common';

/** Locks `ls --json` holds before it streams one per line instead (a document of this many is ~15 MB). */
export const STREAM_AT = 10_000;

export const QUERY_OPTIONS = {
  limit: { type: 'string' },
  health: { type: 'string' },
  verdict: { type: 'string' },
  filter: { type: 'string' },
  sort: { type: 'string' },
  order: { type: 'string' },
} as const;

export const QUERY_HELP = `  --filter TEXT     only locks whose name, owner, purpose or host contains TEXT (any case)
  --health H        only locks of this health: ${LOCK_HEALTHS.join(', ')}
  --verdict V       only locks whose holder is judged ${VERDICTS.join(', ')}
  --sort KEY        sort by ${SORT_KEYS.join(', ')} (default name)
  --order asc|desc  sort order (default asc)
  --limit N         print at most N locks (default ${DEFAULT_LIMIT} with a filter or sort, else all)`;

type Values = { limit?: string; health?: string; verdict?: string; filter?: string; sort?: string; order?: string };

/** The query the flags ask for, or undefined when none was given (the whole listing, as before). */
export function queryOf(v: Values): LockQuery | undefined {
  if ([v.limit, v.health, v.verdict, v.filter, v.sort, v.order].every((x) => x === undefined)) return undefined;
  if (v.health !== undefined && !(LOCK_HEALTHS as readonly string[]).includes(v.health))
    throw new UsageError(`--health must be one of ${LOCK_HEALTHS.join(', ')}; got ${JSON.stringify(v.health)}.`);
  if (v.verdict !== undefined && !isVerdict(v.verdict))
    throw new UsageError(`--verdict must be one of ${VERDICTS.join(', ')}; got ${JSON.stringify(v.verdict)}.`);
  if (v.sort !== undefined && !SORT_KEYS.includes(v.sort))
    throw new UsageError(`--sort must be one of ${SORT_KEYS.join(', ')}; got ${JSON.stringify(v.sort)}.`);
  if (v.order !== undefined && v.order !== 'asc' && v.order !== 'desc')
    throw new UsageError(`--order must be asc or desc; got ${JSON.stringify(v.order)}.`);
  const limit = v.limit === undefined ? DEFAULT_LIMIT : Number(v.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new UsageError(`--limit must be a whole number of at least 1; got ${JSON.stringify(v.limit)}.`);
  return {
    ...(v.filter?.trim() ? { q: v.filter.trim() } : {}),
    ...(v.health ? { health: v.health as LockHealth } : {}),
    ...(v.verdict ? { verdict: v.verdict as Verdict } : {}),
    sort: (v.sort ?? 'name') as IndexSortKey,
    order: (v.order ?? 'asc') as 'asc' | 'desc',
    limit,
  };
}

/** Every page of the source into a lean index (bodies read with each page): bounded memory per lock. */
async function indexSource(store: LockStore) {
  const index = new LockIndex();
  let skipped = 0;
  let serverTime = '';
  let token: string | undefined;
  index.beginPass();
  do {
    const page = await store.list(token);
    for (const lock of page.locks) index.upsert(lock, store.now());
    skipped += page.skipped;
    serverTime = page.serverTime;
    token = page.nextPageToken;
  } while (token);
  return { index, skipped, serverTime };
}

export async function queryWindow(store: LockStore, q: LockQuery) {
  const { index, skipped, serverTime } = await indexSource(store);
  const w = runQuery(
    [{ id: store.source, rows: index.rows.values(), counts: index.counts, verdicts: index.verdicts, size: index.size }],
    q,
  );
  return { serverTime, locks: w.rows.map((x) => expand(x.row)), matched: w.matched, total: w.total, skipped, w };
}

/**
 * `--json` of a whole listing: the document `{ serverTime, source, bucket, prefix, locks, skipped }` while the source
 * holds at most STREAM_AT locks; past that, a header line `{"source":…,"terms":{…},"stream":true}` (the store's
 * shared words, once), one JSON lock per line as pages arrive (without `terms` when they are the header's), then one
 * closing line `{"serverTime":…,"source":…,"skipped":N,"locks":N,"complete":true}`. `out` resolves once the line may
 * be followed (the reader's backpressure), so memory stays flat into a slow reader at any size.
 */
export async function streamJson(
  store: LockStore,
  head: { bucket: string; prefix: string },
  out: (line: string) => Promise<void> | void,
): Promise<void> {
  let held: LockView[] | null = [];
  let skipped = 0;
  const skippedWhy: string[] = [];
  let serverTime = '';
  let count = 0;
  let token: string | undefined;
  const line = lineWithoutTerms(store, out);
  do {
    const page = await store.list(token);
    for (const lock of page.locks) {
      count++;
      if (held) held.push(lock);
      else await line(lock);
    }
    if (held && held.length > STREAM_AT) {
      for (const lock of held) await line(lock);
      held = null;
    }
    skipped += page.skipped;
    for (const why of page.skippedWhy ?? []) if (skippedWhy.length < 50) skippedWhy.push(why);
    serverTime = page.serverTime;
    token = page.nextPageToken;
  } while (token);
  const why = skippedWhy.length ? { skippedWhy } : {};
  if (held) {
    await out(JSON.stringify({ serverTime, source: store.source, ...head, locks: held, skipped, ...why }, null, 2));
    return;
  }
  await out(JSON.stringify({ serverTime, source: store.source, skipped, ...why, locks: count, complete: true }));
}

/** Writes one lock per line; the first line is the header with the store's `terms`, left out of the locks after. */
function lineWithoutTerms(store: LockStore, out: (line: string) => Promise<void> | void) {
  let shared: { ref: unknown; text: string } | undefined;
  return async (lock: LockView) => {
    const { terms, ...rest } = lock;
    if (!shared) {
      shared = { ref: terms, text: JSON.stringify(terms) };
      await out(JSON.stringify({ source: store.source, terms, stream: true }));
    }
    const same = terms === shared.ref || JSON.stringify(terms) === shared.text;
    if (same) shared.ref = terms;
    await out(JSON.stringify(same ? rest : lock));
  };
}
