// What a force-release answers, and the confirmation the page shows after it.
import { versionText } from '@/lib/text/format';
import type { LockInfo } from '@/lib/lock/types';

/** What the release route answers on success. */
export interface Released {
  outcome: 'released';
  confirmed: boolean;
  message: string;
  audit?: { attempt?: string; outcome?: string; outcomeError?: string };
  /** The same lock in other stores, released with it. */
  pairs?: { source: string; name: string; outcome: string }[];
}

/** The confirmation shown after a release: what happened and what the audit trail holds. */
export function releasedNotice(lock: LockInfo, r: Released): string {
  const what = r.confirmed
    ? `Released ${lock.name} (${versionText(lock)}).`
    : `${lock.name} (${versionText(lock)}) is released. ${r.message.replace(/^The lock is released\. /, '')}`;
  const audit = r.audit?.attempt
    ? r.audit.outcome
      ? ' Recorded in the audit trail (attempt and outcome).'
      : ' The attempt is in the audit trail; recording the outcome failed.'
    : '';
  const pairs = (r.pairs ?? []).map((p) => ` Its pair ${p.source} ${p.name}: ${p.outcome}.`).join('');
  return what + audit + pairs;
}
