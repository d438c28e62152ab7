'use client';
// The churn page's four tables of events: takeovers of crashed holders, failures, force-releases, and deletions
// outside Lockboard, each with the columns that say what happened.
import { operatorText } from '@/lib/console/churn/operator-text';
import type { ChurnEvent, ChurnSummary } from '@/lib/console/churn/summary';
import { formatDuration } from '@/lib/text/format';
import { EventTable } from './churn-parts';

type Columns = [string, (e: ChurnEvent) => string][];

const TAKEOVERS: Columns = [
  ['Previous holder', (e) => e.previous_identity ?? 'unknown'],
  ['New holder', (e) => e.identity ?? ''],
  ['After expiry', (e) => (e.stale_ms !== undefined ? formatDuration(e.stale_ms) : '—')],
];
const FAILURES: Columns = [
  ['Holder', (e) => e.identity ?? ''],
  ['What', (e) => (e.event === 'lost' ? 'lock lost' : (e.error ?? 'error'))],
];
const FORCE_RELEASES: Columns = [
  ['Operator', operatorText],
  ['Reason', (e) => e.reason ?? ''],
  ['Generation', (e) => e.generation ?? ''],
  ['Outcome', (e) => (e.delete_confirmed === 'false' ? 'released (unconfirmed)' : (e.outcome ?? e.event))],
];
const DELETED_OUTSIDE: Columns = [
  ['Holder at the time', (e) => e.identity ?? 'unknown'],
  ['Generation', (e) => e.generation ?? ''],
];

export function ChurnEventTables({ s }: { s: ChurnSummary }) {
  return (
    <>
      <EventTable title="Takeovers (crashed holders)" testId="takeovers" events={s.takeovers} columns={TAKEOVERS} />
      <EventTable
        title="Failures recorded by withLock / lost locks"
        testId="failures"
        events={s.failures}
        columns={FAILURES}
      />
      <EventTable title="Force-releases" testId="force-releases" events={s.forceReleases} columns={FORCE_RELEASES} />
      <EventTable
        title="Deleted outside Lockboard (GCS notifications)"
        testId="deleted-outside"
        events={s.deletedOutside}
        columns={DELETED_OUTSIDE}
      />
    </>
  );
}
