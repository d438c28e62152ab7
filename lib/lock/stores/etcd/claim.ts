// Delivery claims in etcd (one webhook delivery per event across console replicas): the key
// `lockboard/audit/claims/<key>`, put in one transaction only if absent (create revision 0), beside the trail and left
// out of the listing with it; its value "1" is no lock format's (an empty leased key would read as etcd3's lock).
// Each key is attached to a lease of two days that a console grants once a day and never keeps alive, so a claim
// lives one to two days (far past a delivery's hour of retries) and etcd removes it itself. As leases
// (claim-lease.ts) the key's value is the lease: created by the same transaction, replaced by one transaction on the
// value read (its text is its version); neither value is any lock format's.
import type { ClaimRecords } from '../../claim-lease';
import { AUDIT_PREFIX } from './audit';
import type { Etcd3Client } from './client';

const DAY_MS = 86_400_000;
const TTL_S = (2 * DAY_MS) / 1000;

export class EtcdClaims implements ClaimRecords {
  private lease: { id: Promise<string>; at: number } | undefined;

  constructor(private readonly client: Etcd3Client) {}

  /** The lease of this day's claims: granted when the last one is a day old (or was lost). */
  private leaseId(): Promise<string> {
    if (!this.lease || Date.now() - this.lease.at > DAY_MS) {
      const id = this.client.leaseClient.leaseGrant({ TTL: TTL_S }).then((r) => String(r.ID));
      id.catch(() => (this.lease = undefined));
      this.lease = { id, at: Date.now() };
    }
    return this.lease.id;
  }

  claim(key: string): Promise<boolean> {
    return this.put(key, '1', ['Create', 0]);
  }

  async create(key: string, body: string): Promise<string | null> {
    return (await this.put(key, body, ['Create', 0])) ? body : null;
  }

  async read(key: string): Promise<{ body: string; version: string } | null> {
    const value = await this.client.get(`${AUDIT_PREFIX}claims/${key}`).string();
    return value === null ? null : { body: value, version: value };
  }

  async replace(key: string, body: string, version: string): Promise<string | null> {
    return (await this.put(key, body, ['Value', version])) ? body : null;
  }

  /** One transaction: the value put (on this day's lease) only if `cond` holds of the key. */
  private async put(
    key: string,
    value: string,
    cond: ['Create', 0] | ['Value', string],
    again = true,
  ): Promise<boolean> {
    const k = `${AUDIT_PREFIX}claims/${key}`;
    const lease = await this.leaseId();
    try {
      const txn = await this.client
        .if(k, cond[0], '==', cond[1])
        .then(this.client.put(k).value(value).lease(lease))
        .commit();
      return txn.succeeded;
    } catch (err) {
      // the lease is gone (revoked, or a restored etcd): a new one, once
      if (!again || !/lease not found/i.test((err as Error).message)) throw err;
      this.lease = undefined;
      return this.put(key, value, cond, false);
    }
  }
}
