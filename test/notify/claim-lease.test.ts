// The lease protocol of webhook delivery claims (lib/lock/claim-lease.ts) over an in-memory record store with the same
// conditional writes as the real ones (create only if absent, replace only at the version read): one replica wins a
// claim; a pending claim is taken over only once its lease has run out, by one replica; the replica it was taken from
// can no longer renew or settle it; a settled claim is never taken over; a create-only marker of old counts as sent.
import { describe, expect, it } from 'vitest';
import {
  decodeLease,
  releaseClaim,
  renewClaim,
  settleClaim,
  takeClaim,
  type ClaimRecords,
} from '@/lib/lock/claim-lease';

function memoryRecords(): ClaimRecords & { rows: Map<string, { body: string; version: number }> } {
  const rows = new Map<string, { body: string; version: number }>();
  let next = 1;
  return {
    rows,
    create: async (key, body) => {
      if (rows.has(key)) return null;
      rows.set(key, { body, version: next });
      return String(next++);
    },
    read: async (key) => {
      const r = rows.get(key);
      return r ? { body: r.body, version: String(r.version) } : null;
    },
    replace: async (key, body, version) => {
      const r = rows.get(key);
      if (!r || String(r.version) !== version) return null;
      rows.set(key, { body, version: next });
      return String(next++);
    },
  };
}

const LEASE = 1_000;

describe('delivery claims as leases', () => {
  it('gives a claim to one of two replicas at once', async () => {
    const records = memoryRecords();
    const [a, b] = await Promise.all([takeClaim(records, 'k', 'a', 0, LEASE), takeClaim(records, 'k', 'b', 0, LEASE)]);
    expect([a, b].filter((r) => r.held)).toHaveLength(1);
    const lost = a.held ? b : a;
    expect(lost.held).toBeUndefined();
    expect(!lost.held && lost.lease).toMatchObject({ state: 'pending', until: LEASE });
  });

  it('takes over a pending claim only after its lease ran out, and the first owner then loses it', async () => {
    const records = memoryRecords();
    const a = await takeClaim(records, 'k', 'a', 0, LEASE);
    const renewed = await renewClaim(records, a.held!, 500, LEASE, 2);
    expect(renewed!.lease).toMatchObject({ owner: 'a', until: 1_500, attempts: 2 });
    expect((await takeClaim(records, 'k', 'b', 1_400, LEASE)).held).toBeUndefined();
    const b = await takeClaim(records, 'k', 'b', 1_501, LEASE);
    expect(b.held?.lease).toMatchObject({ owner: 'b', attempts: 2, firstAt: 0, until: 2_501 });
    expect(b.held && b.takenFrom).toBe('a');
    // a (paused, not dead) comes back: its renewal and its settlement are refused
    expect(await renewClaim(records, renewed!, 1_600, LEASE)).toBeNull();
    expect(await settleClaim(records, renewed!, 'delivered')).toBeNull();
    // two replicas finding it expired at once: one takes it
    const c = await Promise.all([
      takeClaim(records, 'k', 'c', 9_000, LEASE),
      takeClaim(records, 'k', 'd', 9_000, LEASE),
    ]);
    expect(c.filter((r) => r.held)).toHaveLength(1);
  });

  it('never takes over a settled claim, and takes a handed-back one at once', async () => {
    const records = memoryRecords();
    const a = await takeClaim(records, 'k', 'a', 0, LEASE);
    await settleClaim(records, a.held!, 'delivered', 1);
    expect(await takeClaim(records, 'k', 'b', 99_000, LEASE)).toMatchObject({ lease: { state: 'delivered' } });
    const f = await takeClaim(records, 'f', 'a', 0, LEASE);
    expect(await releaseClaim(records, f.held!)).not.toBeNull();
    expect((await takeClaim(records, 'f', 'b', 1, LEASE)).held?.lease.owner).toBe('b');
  });

  it('reads a create-only marker of before leases as sent (never sent twice)', async () => {
    const records = memoryRecords();
    await records.create('old', '{}');
    await records.create('older', '1');
    for (const key of ['old', 'older'])
      expect(await takeClaim(records, key, 'b', 99_000, LEASE)).toMatchObject({ lease: { state: 'delivered' } });
    expect(decodeLease('not json').state).toBe('delivered');
  });

  it('creates the claim again when it was pruned between the create and the read', async () => {
    const records = memoryRecords();
    let first = true;
    const flaky: ClaimRecords = {
      ...records,
      create: async (key, body) => {
        if (first) {
          first = false;
          return null; // "there" for the create, gone for the read
        }
        return records.create(key, body);
      },
    };
    expect((await takeClaim(flaky, 'k', 'a', 0, LEASE)).held?.lease.owner).toBe('a');
  });
});
