// ls, status and release for every store through the registry and LockStore: one path, one output, one set of exit
// codes (stores.md "One contract"). Each store's SDK is loaded only when a source of it is opened.
import { listAll, type FullListing } from '../lock/list-all';
import { OUTCOME_EXIT, describeOutcome } from '../lock/outcomes';
import { assertVersion, type LockStore, type LockView } from '../lock/store';
import { recordsAcquireTime } from '../text/format';
import type { LockQuery } from '../lock/query/query';
import { queryWindow, streamJson } from './ls-query';
import { definitionByKind, openSource } from '../lock/stores';
import { auditLine } from './audit-line';
import { holdLines } from './hold-lines';
import { judgedLock } from './settle';
import { verdictOf } from '../lock/verdict/verdict';
import { EXIT, formatDuration, UsageError } from './common';
import { escapeText } from '../text/safe-text';
import { plural } from '../text/plural';
import { printFields, printTable } from './print';
import type { Target } from './target';

async function open(t: Target, longHeldMs?: number): Promise<LockStore> {
  return openSource(t.spec, { env: t.env, longHeldMs, role: 'cli' });
}

export async function storeLs(t: Target, json: boolean, longHeldMs?: number, query?: LockQuery): Promise<number> {
  const store = await open(t, longHeldMs);
  const { bucket, prefix } = t.spec;
  try {
    if (query) return await lsWindow(store, t, json, query);
    if (json) {
      await streamJson(withHonestTimes(store), { bucket, prefix }, writeLine);
      return EXIT.ok;
    }
    const listing: FullListing = await listAll(store);
    printLocks(store, listing.locks, listing.serverTime);
    const { skipped } = listing;
    if (listing.locks.length === 0)
      console.log(escapeText(`No locks under ${store.source}${skipped ? `; ${skippedLine(skipped)}` : ''}`));
    else if (skipped) console.log(skippedLine(skipped));
    // entries that could not be read say why (escaped: a name's bytes never drive the terminal)
    for (const why of listing.skippedWhy) console.log(escapeText(`  skipped ${why}`));
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/** One line to stdout, resolved once the reader has taken it in (stdout's backpressure: await 'drain'). */
async function writeLine(line: string): Promise<void> {
  if (process.stdout.write(`${line}\n`)) return;
  await new Promise<void>((resolve) => {
    const done = () => (process.stdout.off('drain', done), process.stdout.off('error', done), resolve());
    process.stdout.on('drain', done).on('error', done);
  });
}

const skippedLine = (n: number) =>
  `${plural('other object', n)} skipped: not locks (data such as Terraform state, audit events, a tool's released rows, unrecognised).`;

/** One window of the whole source, filtered and sorted over every lock (the console's query). */
async function lsWindow(store: LockStore, t: Target, json: boolean, query: LockQuery): Promise<number> {
  const { serverTime, locks, matched, total, skipped, w } = await queryWindow(store, query);
  if (json) {
    const { bucket, prefix } = t.spec;
    const doc = {
      serverTime,
      source: store.source,
      bucket,
      prefix,
      matched,
      total,
      counts: w.counts,
      locks: locks.map(honestTimes),
      skipped,
    };
    console.log(JSON.stringify(doc, null, 2));
    return EXIT.ok;
  }
  if (locks.length) printLocks(store, locks, serverTime);
  console.log(
    escapeText(
      `${locks.length} shown of ${matched} matching, ${plural('lock', total)} under ${store.source}` +
        (matched > locks.length ? ` (raise --limit or narrow --filter to see the rest)` : '') +
        (skipped ? `; ${skippedLine(skipped)}` : '.'),
    ),
  );
  return EXIT.ok;
}

function printLocks(store: LockStore, locks: LockView[], serverTime: string): void {
  if (locks.length === 0) return;
  const now = Date.parse(serverTime);
  const rows = locks.map((l) => [
    l.name,
    l.health,
    [l.identity ?? '-', l.purpose ? `(${l.purpose})` : ''].join(' ').trim(),
    recordsAcquireTime(l) ? formatDuration(l.heldMs) : 'not recorded',
    l.expiresAt ? expiresIn(Date.parse(l.expiresAt) - now) : 'never',
    l.version,
    l.format,
    l.verdict ? `${l.verdict}${l.settleMs ? ' (one read)' : ''}` : '-',
  ]);
  printTable(['NAME', 'HEALTH', 'OWNER', 'HELD FOR', 'EXPIRES IN', 'VERSION', 'FORMAT', 'VERDICT'], rows, [2]);
  for (const line of holdLines(locks, now)) console.log(escapeText(line));
  // one listing cannot judge a holder whose proof is a change between two reads: say so, never imply it is fine
  if (locks.some((l) => l.settleMs))
    console.log('VERDICT "(one read)": judged by two reads; "lockboard why SOURCE NAME --settle" reads it again.');
  if (locks.some((l) => !recordsAcquireTime(l)))
    console.log('HELD FOR "not recorded": the format stores no acquire time, and this command saw the lock only now.');
}

export async function storeStatus(t: Target, json: boolean, longHeldMs?: number, settle = false): Promise<number> {
  const store = await open(t, longHeldMs);
  const lock = await judgedLock(store, t.name!, settle).finally(() => store.close());
  const held = lock !== null && lock.releasable && lock.health !== 'expired' && lock.health !== 'free';
  const code = lock && !lock.releasable ? EXIT.notALock : held ? EXIT.ok : EXIT.free;
  if (json) {
    console.log(JSON.stringify(lock && honestTimes(lock), null, 2));
    return code;
  }
  if (!lock) {
    console.log(escapeText(`${t.name}: free (nothing holds it in ${store.source})`));
    return EXIT.free;
  }
  printFields(lock, held);
  return code;
}

export async function storeRelease(
  t: Target,
  o: {
    version?: string;
    reason: string;
    operator: string;
    json: boolean;
    acceptTwoLeaders?: boolean;
    ifGone?: boolean;
  },
): Promise<number> {
  if (o.ifGone) return releaseIfGone(t, o);
  const shape = definitionByKind(t.spec.kind).versionShape;
  if (!o.version)
    throw new UsageError(`--version is required: the version "lockboard status" shows (${shape.describe}).`);
  try {
    assertVersion({ source: t.spec.id, versionShape: shape }, o.version);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const store = await open(t);
  const result = await store
    .forceRelease({
      name: t.name!,
      version: o.version,
      reason: o.reason,
      operator: o.operator,
      ...(o.acceptTwoLeaders ? { acceptTwoLeaders: true } : {}),
    })
    .finally(() => store.close());
  if (o.json) console.log(JSON.stringify(result, null, 2));
  else {
    const where = `${t.spec.id}${t.spec.prefix && t.name!.startsWith(t.spec.prefix) ? t.name!.slice(t.spec.prefix.length) : ` ${t.name}`}`;
    const holder = result.current?.identity;
    const queuedFor = result.current?.queuedFor;
    let line = describeOutcome(result.outcome, { where, version: o.version, holder, detail: result.detail, queuedFor });
    if (result.outcome === 'not-a-lock' && result.current?.note && !queuedFor) line += ` (${result.current.note})`;
    const refused = result.outcome === 'changed' || result.outcome === 'refreshed';
    if (refused && result.current?.terms?.conflict) line += `\n${result.current.terms.conflict}`;
    console.log(escapeText(line, { keepNewlines: true }));
    // a store that queues contenders: who gets the lock now, and what the released holder (or leader) is told
    if (result.outcome === 'released' && result.released?.waiters) console.log(`Note: ${result.released.terms.effect}`);
    if (result.confirmed === false)
      console.log(
        'Note: the response to the delete was lost and its retry found the lock gone: it was removed by this command or, at the same moment, by its holder.',
      );
    const audit = auditLine(result);
    if (audit) console.log(escapeText(audit));
  }
  return OUTCOME_EXIT[result.outcome];
}

/** --if-gone: the lock is judged now; released (pinned to the version judged, or the one given) only when gone. */
async function releaseIfGone(
  t: Target,
  o: { version?: string; reason: string; operator: string; json: boolean; acceptTwoLeaders?: boolean },
): Promise<number> {
  const store = await open(t);
  let seen: LockView | null;
  try {
    seen = await store.inspect(t.name!);
  } finally {
    await store.close();
  }
  if (!seen) {
    console.log(escapeText(`Not released: ${t.name} is not there (nothing holds it in ${t.spec.id}).`));
    return EXIT.gone;
  }
  const verdict = verdictOf(seen);
  if (verdict?.verdict !== 'gone') {
    const said = verdict ? `judged ${verdict.verdict}: ${verdict.sentence}` : 'not judged (not a held lock)';
    if (o.json)
      console.log(JSON.stringify({ outcome: 'not-gone', verdict: verdict?.verdict ?? null, current: seen }, null, 2));
    else console.log(escapeText(`Not released (--if-gone): its holder is ${said} Nothing was touched.`));
    return EXIT.refused;
  }
  return storeRelease(t, { ...o, version: o.version ?? seen.version, ifGone: false });
}

/**
 * A lock whose format records no acquire time: `createdAt` and `heldMs` are null (a one-shot command saw it only now;
 * now is not when it was acquired), `seenAt` says when it was seen.
 */
function honestTimes(l: LockView): LockView | (Omit<LockView, 'createdAt' | 'heldMs'> & Record<string, unknown>) {
  if (recordsAcquireTime(l)) return l;
  return { ...l, createdAt: null, heldMs: null, seenAt: l.createdAt };
}

/** The store as `--json` lists it: the times a format does not record are null (honestTimes), never now. */
function withHonestTimes(store: LockStore): LockStore {
  const list: LockStore['list'] = async (token, o) => {
    const page = await store.list(token, o);
    return { ...page, locks: page.locks.map(honestTimes) as LockView[] };
  };
  return Object.assign(Object.create(store) as LockStore, { list });
}

function expiresIn(ms: number): string {
  return ms <= 0 ? `expired ${formatDuration(-ms)} ago` : formatDuration(ms);
}
