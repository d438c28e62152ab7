// ls, status and release for every store through the registry and LockStore: one path, one output, one set of exit
// codes (stores.md "One contract"). Each store's SDK is loaded only when a source of it is opened.
import { listAll, type FullListing } from '../lock/list-all';
import { OUTCOME_EXIT, describeOutcome } from '../lock/outcomes';
import { assertVersion, type LockStore } from '../lock/store';
import { definitionByKind, openSource } from '../lock/stores';
import { EXIT, formatDuration, UsageError } from './common';
import { escapeText } from '../safe-text';
import { printFields, printTable } from './print';
import type { Target } from './target';

async function open(t: Target, longHeldMs?: number): Promise<LockStore> {
  return openSource(t.spec, { env: t.env, longHeldMs, role: 'cli' });
}

export async function storeLs(t: Target, json: boolean, longHeldMs?: number): Promise<number> {
  const store = await open(t, longHeldMs);
  let listing: FullListing;
  try {
    listing = await listAll(store);
  } finally {
    await store.close();
  }
  const { locks, skipped, serverTime } = listing;
  if (json) {
    const { bucket, prefix } = t.spec;
    console.log(JSON.stringify({ serverTime, source: store.source, bucket, prefix, locks, skipped }, null, 2));
    return EXIT.ok;
  }
  const skippedLine = `${skipped} other object${skipped === 1 ? '' : 's'} skipped (data or not a recognised lock).`;
  if (locks.length === 0) {
    console.log(escapeText(`No locks under ${store.source}${skipped ? `; ${skippedLine}` : ''}`));
    return EXIT.ok;
  }
  const now = Date.parse(serverTime);
  const rows = locks.map((l) => [
    l.name,
    l.health,
    [l.identity ?? '-', l.purpose ? `(${l.purpose})` : ''].join(' ').trim(),
    formatDuration(l.heldMs),
    l.expiresAt ? expiresIn(Date.parse(l.expiresAt) - now) : 'never',
    l.version,
    l.format,
  ]);
  printTable(['NAME', 'HEALTH', 'OWNER', 'HELD FOR', 'EXPIRES IN', 'VERSION', 'FORMAT'], rows);
  if (skipped) console.log(skippedLine);
  return EXIT.ok;
}

export async function storeStatus(t: Target, json: boolean, longHeldMs?: number): Promise<number> {
  const store = await open(t, longHeldMs);
  const lock = await store.inspect(t.name!).finally(() => store.close());
  const held = lock !== null && lock.releasable && lock.health !== 'expired' && lock.health !== 'free';
  const code = lock && !lock.releasable ? EXIT.notALock : held ? EXIT.ok : EXIT.free;
  if (json) {
    console.log(JSON.stringify(lock, null, 2));
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
  o: { version?: string; reason: string; operator: string; json: boolean },
): Promise<number> {
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
    .forceRelease({ name: t.name!, version: o.version, reason: o.reason, operator: o.operator })
    .finally(() => store.close());
  if (o.json) console.log(JSON.stringify(result, null, 2));
  else {
    const where = `${t.spec.id}${t.spec.prefix && t.name!.startsWith(t.spec.prefix) ? t.name!.slice(t.spec.prefix.length) : ` ${t.name}`}`;
    const holder = result.current?.identity;
    let line = describeOutcome(result.outcome, { where, version: o.version, holder });
    if (result.outcome === 'not-a-lock' && result.current?.note) line += ` (${result.current.note})`;
    console.log(escapeText(line));
    if (result.confirmed === false)
      console.log(
        'Note: the response to the delete was lost and its retry found the lock gone: it was removed by this command or, at the same moment, by its holder.',
      );
    if (result.audit.length)
      console.log(
        `Audit: attempt recorded (${result.audit[0]})` +
          escapeText(
            result.audit[1]
              ? `, outcome recorded (${result.audit[1]}).`
              : `; the outcome could not be recorded${result.auditError ? `: ${result.auditError}` : ''}.`,
          ),
      );
  }
  return OUTCOME_EXIT[result.outcome];
}

function expiresIn(ms: number): string {
  return ms <= 0 ? `expired ${formatDuration(-ms)} ago` : formatDuration(ms);
}
