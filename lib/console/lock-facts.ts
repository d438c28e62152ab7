// Client-safe: every sentence and field the lock page and the release dialog show about one lock, as text, in its
// store's words (terms.health for its format, the neutral words otherwise). The components only lay these out, so a
// test can read exactly what a person reads for any store, format and health.
import { formatDuration, formatTime, versionText } from '../text/format';
import { healthMeaning, releaseAdvice } from './health';
import type { LockInfo } from '../lock/types';

/** One row: `kind` tells the page how to draw it (a badge, a live countdown, a version in monospace). */
export interface LockFact {
  label: string;
  text: string;
  kind?: 'health' | 'countdown' | 'version' | 'sensitive';
}

/** "When it changes": the times the lock carries (refreshing formats only speak of refreshes), then its store's words. */
export function healthChange(lock: LockInfo): string {
  const said = lock.terms?.health?.changes?.[lock.health];
  const timed = lock.health === 'healthy' || lock.health === 'long-held' || lock.health === 'overdue';
  const parts: string[] = [];
  if (timed && lock.refreshIntervalMs && lock.health !== 'overdue') {
    const overdueAt = Date.parse(lock.updatedAt) + 1.5 * lock.refreshIntervalMs;
    parts.push(`Becomes overdue at ${formatTime(new Date(overdueAt).toISOString())} without a refresh.`);
  }
  if (timed && lock.expiresAt) parts.push(`Expires at ${formatTime(lock.expiresAt)}.`);
  if (said) parts.push(said);
  else if (lock.health === 'free') parts.push('Nobody holds it; the next holder replaces this released marker.');
  else if (lock.health === 'unknown')
    parts.push('Never by itself: it stays until its owner or an operator removes it.');
  else if (lock.health === 'expired')
    parts.push(
      lock.terms?.expiredMeans
        ? `It stays so until an operator clears it: ${lock.terms.expiredMeans}.`
        : 'It stays expired until an acquirer takes it over or an operator clears it.',
    );
  else parts.push(lock.terms?.liveness ?? 'Only its owner or an operator changes it.');
  return parts.join(' ');
}

/** "Held for" where the format records when it was taken, "Seen for" where only the console's first sight is known. */
const heldForLabel = (lock: LockInfo) => (lock.terms?.since ?? 'Held since').replace(/ since$/, ' for');

/**
 * The format's own fields, except those that repeat a field already shown with the same value (a Lockboard lock's
 * Identity and Purpose are both fields of the lock and entries of its details) or that the page shows as its own
 * row (`rows`: a Lease's leaseDurationSeconds is the TTL row): each fact is shown once.
 */
function ownDetails(lock: LockInfo, shown: LockFact[], rows: LockFact[] = []): LockFact[] {
  const seen = new Set(shown.map((f) => `${f.label}\u0000${f.text}`));
  const labels = new Set(rows.map((f) => f.label));
  return lock.details
    .map(([label, text]) => ({ label, text }))
    .filter((f) => !seen.has(`${f.label}\u0000${f.text}`) && !labels.has(f.label));
}

/** The lock page's fields, in order. */
export function detailFacts(lock: LockInfo, serverNow: number): LockFact[] {
  const t = lock.terms;
  const ago = (iso: string) => formatDuration(serverNow - Date.parse(iso));
  const head: LockFact[] = [
    { label: 'Health', text: healthMeaning(lock, lock.health), kind: 'health' },
    { label: 'When it changes', text: healthChange(lock) },
    { label: 'Identity', text: lock.identity ?? 'unknown' },
    ...(lock.host ? [{ label: 'Host / pid', text: `${lock.host} / ${lock.pid ?? '?'}` }] : []),
    ...(lock.purpose ? [{ label: 'Purpose', text: lock.purpose }] : []),
    { label: 'Format', text: `${lock.formatLabel} (${lock.format})` },
  ];
  const tail: LockFact[] = [
    ...(lock.note ? [{ label: 'Note', text: lock.note }] : []),
    { label: 'Releasing', text: lock.releaseNote },
    { label: t?.since ?? 'Held since', text: `${formatTime(lock.createdAt)} (${ago(lock.createdAt)})` },
    ...(t?.updated ? [{ label: t.updated, text: `${formatTime(lock.updatedAt)} (${ago(lock.updatedAt)} ago)` }] : []),
    { label: 'Expires in', text: lock.expiresAt ?? 'never', kind: 'countdown' },
    ...(t?.ttl && lock.ttlMs
      ? [
          {
            label: t.ttl,
            text: `${formatDuration(lock.ttlMs)}${lock.refreshIntervalMs ? ` / ${formatDuration(lock.refreshIntervalMs)}` : ''}`,
          },
        ]
      : []),
    { label: 'Store', text: `${t?.storeLabel ?? lock.store ?? ''} · ${lock.source ?? lock.bucket}` },
    { label: `Version (${t?.versionName ?? 'version'})`, text: versionText(lock), kind: 'version' },
  ];
  const sensitive = (lock.sensitive ?? []).map(([label, text]): LockFact => ({
    label: `${label} (unmasked: operators only)`,
    text,
    kind: 'sensitive',
  }));
  return [...head, ...ownDetails(lock, head, tail), ...sensitive, ...tail];
}

/** The release dialog's fields about the lock, in order. */
export function dialogFacts(lock: LockInfo, serverNow: number): LockFact[] {
  const head: LockFact[] = [
    { label: 'Holder', text: lock.identity ?? 'unknown' },
    ...(lock.purpose ? [{ label: 'Purpose', text: lock.purpose }] : []),
    { label: 'Format', text: lock.formatLabel },
  ];
  // the Holder is the lock's identity: a detail repeating it as "Identity" is the same field
  const holder = lock.identity ? [{ label: 'Identity', text: lock.identity }] : [];
  return [
    ...head,
    ...ownDetails(lock, [...head, ...holder]),
    { label: 'Health', text: healthMeaning(lock, lock.health), kind: 'health' },
    { label: heldForLabel(lock), text: formatDuration(serverNow - Date.parse(lock.createdAt)) },
    // named like the page's: a format's own "Version" (Terraform's) is another field
    { label: `Version (${lock.terms?.versionName ?? 'version'})`, text: versionText(lock), kind: 'version' },
  ];
}

/** The dialog's paragraphs under the fields: the store's rule and what clearing does, then "Safe to clear?". */
export function dialogSentences(lock: LockInfo): { rule: string; safe: string } {
  return {
    rule: lock.terms ? `${lock.terms.rule} ${lock.terms.effect}` : '',
    safe: `${releaseAdvice(lock, lock.health)} Only this version is cleared: if someone else takes the lock meanwhile, nothing of theirs is touched.`,
  };
}
