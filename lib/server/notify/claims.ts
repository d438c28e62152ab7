// One delivery series per event and webhook across every replica: the first replica to create the claim's marker
// in the store (create-only, as the change feed writes outside deletions once) delivers; the others see it there and
// do not. A store with no create-only marker claims within this replica only, and says so once.
import type { LockStore } from '@/lib/lock/store';
import { stableId } from './event';

const local = new Set<string>();
const warned = new Set<string>();
const MAX_LOCAL = 100_000;

/** The claim's key for one event told to one webhook. */
export const claimKey = (eventId: string, webhook: string): string => `notify-${stableId([eventId, webhook])}`;

/** True for the one caller that claimed `key` first; store errors throw (the event is offered again later). */
export async function claimOnce(store: LockStore, key: string, log: (line: string) => void): Promise<boolean> {
  if (store.claim) return store.claim(key);
  if (!warned.has(store.kind)) {
    warned.add(store.kind);
    log(
      `[lockboard] ${store.source}: this store keeps no create-only marker; webhooks are claimed per replica (run one replica, or expect one delivery per replica)`,
    );
  }
  if (local.has(key)) return false;
  if (local.size >= MAX_LOCAL) local.delete(local.values().next().value!);
  local.add(key);
  return true;
}
