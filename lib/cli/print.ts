// Terminal output of locks: a table for `ls`, fields for `status`, in each store's own words (the view's terms).
import type { LockView } from '../lock/store';
import { escapeText } from '../text/safe-text';
import { recordsAcquireTime, releaseCommand, shellQuote } from '../text/format';
import { formatDuration } from './common';
import { sentenceWithSettle } from './settle';

/** Widest a table cell other than the name is printed (a 60 KB holder value must not widen every row). */
const MAX_CELL = 60;
const cut = (c: string) => (c.length > MAX_CELL ? `${c.slice(0, MAX_CELL - 1)}…` : c);

/** A table of holders' text: every cell escaped (a holder's bytes never drive the terminal), then aligned. */
export function printTable(rawHeader: string[], rawRows: string[][], freeText: number[] = []): void {
  const header = rawHeader.map((c) => escapeText(c));
  // free text (a holder's OWNER) cut with an ellipsis; names and versions, which a release needs whole, as they are
  const rows = rawRows.map((r) => r.map((c, i) => (freeText.includes(i) ? cut(escapeText(c)) : escapeText(c))));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

export function printFields(lock: LockView, held: boolean): void {
  const t = lock.terms;
  const fields: [string, string | undefined][] = [
    ['lock', `${lock.source} ${lock.name}`],
    ['store', t.storeLabel],
    ['state', stateOf(lock, held)],
    ['verdict', sentenceWithSettle(lock)],
    ['identity', lock.identity],
    ['host / pid', lock.host ? `${lock.host} / ${lock.pid ?? '?'}` : undefined],
    ['purpose', lock.purpose],
    ['format', `${lock.formatLabel} (${lock.format})`],
    ...lock.details.map(([k, v]): [string, string] => [k.toLowerCase(), v]),
    // the CLI runs with the store's own credentials: it shows what only operators see in the console
    ...(lock.sensitive ?? []).map(([k, v]): [string, string] => [`${k.toLowerCase()} (unmasked)`, v]),
    ['note', lock.note],
    ...waiterLines(lock),
    ...(lock.releasable
      ? ([
          recordsAcquireTime(lock)
            ? [t.since.toLowerCase(), `${lock.createdAt} (${formatDuration(lock.heldMs)})`]
            : ['held since', 'not recorded by this format (seen now by this command)'],
          [t.updated?.toLowerCase() ?? '', t.updated ? lock.updatedAt : undefined],
          ['expires at', lock.expiresAt ?? 'never by itself'],
          [
            t.ttl?.toLowerCase() ?? '',
            t.ttl && lock.ttlMs
              ? `${formatDuration(lock.ttlMs)}${lock.refreshIntervalMs ? ` / ${formatDuration(lock.refreshIntervalMs)}` : ''}`
              : undefined,
          ],
          ['liveness', t.liveness],
          ['version', `${lock.version} (${t.versionName}: ${lock.versionLabel})`],
          ['release with', `--version ${shellQuote(lock.version)}`],
          ['command', releaseCommand(lock)],
          ['releasing', lock.releaseNote],
        ] as [string, string | undefined][])
      : []),
  ];
  const shown = once(fields.filter(([k, v]) => k && v !== undefined));
  const width = Math.max(...shown.map(([k]) => escapeText(k).length)) + 1;
  for (const [k, v] of shown) console.log(`${escapeText(k).padEnd(width)} ${escapeText(v!)}`);
}

/**
 * Each fact once: a format's detail that repeats a field already printed (its own "Identity", "Host" or "PID" beside
 * the identity and host / pid lines) is left out.
 */
function once(fields: [string, string | undefined][]): [string, string | undefined][] {
  const keys = new Set<string>();
  const values = new Set<string>();
  const hostPid = fields.find(([k]) => k === 'host / pid')?.[1];
  const covered = (k: string, v: string) =>
    keys.has(k) ||
    (['identity', 'owner', 'holder', 'who'].includes(k) && values.has(v)) ||
    (hostPid !== undefined && ['host', 'pid', 'hostname'].includes(k) && hostPid.split(' / ').includes(v));
  return fields.filter(([k, v]) => {
    if (covered(k, v!)) return false;
    keys.add(k);
    values.add(v!);
    return true;
  });
}

/** The contenders queued behind the holder, in the order the store grants them (etcd, ZooKeeper). */
function waiterLines(lock: LockView): [string, string][] {
  const w = lock.waiters ?? [];
  if (!lock.releasable) return [];
  if (w.length === 0) return lock.waiters ? [['queue', 'no waiters']] : [];
  return w.map((x, i): [string, string] => [
    i === 0 ? 'queue' : ' ',
    `${i + 1}. ${x.identity}${x.key ? ` (${x.key})` : ''}, version ${x.version}${x.since ? `, seen since ${x.since}` : ''}`,
  ]);
}

function stateOf(lock: LockView, held: boolean): string {
  if (lock.queuedFor) return `waiting for ${lock.queuedFor} (a waiter: never released by Lockboard)`;
  if (!lock.releasable) return 'not a lock (never released by Lockboard)';
  if (lock.health === 'free') return 'free (a released marker kept by its library)';
  // one read that cannot prove the holder alive never says "healthy" (issue 52): the verdict says what it can
  const word =
    lock.health === 'healthy' && lock.verdict && lock.verdict !== 'alive' ? `holder ${lock.verdict}` : lock.health;
  return held ? `held (${word})` : `free (expired: ${lock.terms.expiredMeans ?? 'the next acquirer takes it over'})`;
}
