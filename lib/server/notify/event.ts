// What a webhook is told: one event, the same on every replica (its `id` comes from the trail's record or the
// holder's version alone, so a receiver can drop a duplicate).
import { createHash } from 'node:crypto';
import type { NotifyEventKind } from './config';

export interface NotifyEvent {
  id: string;
  event: NotifyEventKind | 'test';
  at: string;
  lock: { address: string; source: string; name: string; store: string; format: string | null };
  actor: string | null;
  reason: string | null;
  outcome: string | null;
  verdict: string | null;
  sentence: string | null;
  link: string | null;
  /**
   * From a trail record: whether it carries the deployment's signature (LOCKBOARD_AUDIT_KEY); null where no key is
   * set, or for what the console judged itself (holder-gone, test). An unverified force-release is no operator's act:
   * its `actor` is null and the name it gives is `claimedActor`.
   */
  verified: boolean | null;
  /** A hold's end (hold-placed, hold-ended, hold-expired): ISO, the store's clock. */
  until?: string;
  claimedActor?: string;
}

/** A short, stable id from the parts that name the event. */
export const stableId = (parts: string[]): string =>
  createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);
