// What the lease tests share: a replica (a Notifier) telling force-releases to one webhook `team`, and the claim of
// an event for `team` as the store holds it.
import { decodeLease, type ClaimLease } from '@/lib/lock/claim-lease';
import { claimKey } from '@/lib/server/notify/claims';
import { Notifier, type NotifierOptions } from '@/lib/server/notify/notifier';
import { sources, type Source } from '@/lib/server/sources';
import { storeFor } from '@/lib/server/stores';
import type { ClaimingStore } from '@/lib/lock/store';

/** A started replica telling `url` of force-releases, passing every 100 ms. */
export function teamReplica(url: string, o: Partial<NotifierOptions> = {}): Notifier {
  const n = new Notifier({
    sources,
    config: () => ({
      webhooks: [{ name: 'team', url, format: 'json', events: ['force-released'], after: 600_000 }],
    }),
    pollMs: 100,
    log: () => undefined,
    ...o,
  });
  n.start();
  return n;
}

/** The claim of `eventId` for the webhook `team` as the store of `source` holds it. */
export async function claimOf(source: Source, eventId: string): Promise<ClaimLease | undefined> {
  const store = await storeFor(source);
  let lease: ClaimLease | undefined;
  await (store as ClaimingStore).claim(claimKey(eventId, 'team'), async (records) => {
    const read = await records.read(claimKey(eventId, 'team'));
    lease = read ? decodeLease(read.body) : undefined;
    return false;
  });
  return lease;
}
