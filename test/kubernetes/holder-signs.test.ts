// The verdict on a Lease's holder from its renewals and the Pod its identity names, with no apiserver (the real one:
// verdict.test.ts, pod-identity.test.ts): a missing Pod is no proof while the Lease renews, a Pod being deleted is
// never gone, and a killed leader is gone once its Lease has been unchanged past five of its renewal intervals.
import { describe, expect, it } from 'vitest';
import { readLease } from '@/lib/lock/stores/kubernetes/formats';
import { HolderLookups, type PodFacts } from '@/lib/lock/stores/kubernetes/holders';
import { KubeRequestError, microTime, type Lease } from '@/lib/lock/stores/kubernetes/lease';
import { leaseSigns } from '@/lib/lock/stores/kubernetes/lease-signs';
import { observe, type Observations } from '@/lib/lock/stores/kubernetes/view';
import { judgeHolder, type LockVerdict } from '@/lib/lock/verdict/verdict';

const ID = 'ctrl-7d9f_6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const T0 = Date.parse('2026-11-29T05:00:00.000Z');

/** The Lease as its writer left it at `renewMs`: each renewal a new resourceVersion. */
const leaseAt = (renewMs: number, durationS = 60, holder = ID): Lease => ({
  metadata: { name: 'ctrl', namespace: 'apps', uid: 'u1', resourceVersion: String(renewMs) },
  spec: {
    holderIdentity: holder,
    leaseDurationSeconds: durationS,
    acquireTime: microTime(T0),
    renewTime: microTime(renewMs),
  },
});

/** A reader of one namespace's Pods (`pods`) and no Nodes (or Nodes it may not list). */
function reader(pods: PodFacts[] = [], o: { nodesForbidden?: boolean } = {}) {
  const seen: Observations = new Map();
  const listNodes = async () => {
    if (o.nodesForbidden) throw new KubeRequestError(403, 'nodes is forbidden');
    return [];
  };
  const lookups = new HolderLookups({ listPods: async () => pods, listNodes });
  return {
    pods,
    async judge(l: Lease, now: number): Promise<LockVerdict> {
      const r = readLease(l)!;
      const signs = await leaseSigns(l, r, observe(seen, l, now), now, lookups, 0);
      return judgeHolder({ health: 'healthy', signs });
    },
  };
}

/** A client-go leader renewing every 2 s from T0 until `until`, read every 500 ms to `end`: each read's verdict. */
async function readEvery500ms(until: number, end: number, r = reader()) {
  const verdicts: [number, LockVerdict][] = [];
  for (let now = T0; now <= end; now += 500) {
    const last = T0 + Math.floor((Math.min(now, until) - T0) / 2000) * 2000;
    verdicts.push([now - T0, await r.judge(leaseAt(last), now)]);
  }
  return verdicts;
}

describe('a Lease whose holder names no Pod in its namespace', () => {
  it('is unknown on a first read, naming the namespace, the blind spot and what settles it', async () => {
    const v = await reader().judge(leaseAt(T0), T0 + 300);
    expect(v.verdict).toBe('unknown');
    expect(v.sentence).toMatch(
      /no Pod named ctrl-7d9f in namespace apps \(nor a Node of that name\), but its identity/,
    );
    expect(v.sentence).toMatch(/a leader outside the cluster, spec\.hostname, a hostname cut at 63 characters/);
    expect(v.sentence).toMatch(/its Lease seen unchanged for longer than its 60 s lease settles it/);
    expect(v.settleMs).toBe(61_000);
  });

  it('is never gone while its leader renews, and alive once a renewal is seen', async () => {
    const verdicts = await readEvery500ms(Infinity, T0 + 120_000);
    expect(verdicts.filter(([, v]) => v.verdict === 'gone')).toEqual([]);
    expect(verdicts.at(-1)![1].verdict).toBe('alive');
  });

  it('is never gone while it renews, whatever the cadence, the lease and how often it is read', async () => {
    // each renewal up to 0.9 s late, as a busy leader's are, and every 13th fails (retried a retry period later)
    const late = (k: number) => ((k * 37) % 10) * 100;
    const fails = (k: number) => k % 13 === 12;
    for (const cadence of [1_000, 2_000, 5_000, 10_000])
      for (const every of [100, 700, 3_000, 7_000, 20_000])
        for (const durationS of [15, 60]) {
          if (2 * cadence >= durationS * 1000) continue; // a retried renewal past its lease: client-go stops leading
          const r = reader();
          for (let now = T0 + 1_000; now < T0 + 600_000; now += every) {
            let k = Math.floor((now - T0) / cadence);
            if (T0 + k * cadence + late(k) > now) k--;
            if (fails(k)) k--;
            const v = await r.judge(leaseAt(T0 + k * cadence + late(k), durationS), now);
            expect(v.verdict, `renewed every ${cadence} ms, read every ${every} ms, ${durationS} s lease`).not.toBe(
              'gone',
            );
          }
        }
  });

  it('is gone once its Lease has been unchanged past five of the renewals seen plus 2 s, not before', async () => {
    const killed = 10_000; // the last renewal at T0 + 10 s, first read at T0 + 10 s
    const verdicts = await readEvery500ms(T0 + killed, T0 + 30_000);
    const gone = verdicts.filter(([, v]) => v.verdict === 'gone').map(([t]) => t);
    expect(gone[0]).toBe(killed + 12_500); // unchanged for 12.5 s > 5 × 2 s + 2 s, well before its 60 s lease
    expect(verdicts.find(([t]) => t === killed + 12_000)![1].verdict).toBe('alive'); // renewed within its bound
    const [, first] = verdicts.find(([t]) => t === gone[0])!;
    expect(first.sentence).toBe(
      'Holder gone: no Pod named ctrl-7d9f in namespace apps (nor a Node of that name), and its Lease has not changed for 12.5 s, past 12 s (5 of the 2 s renewals seen, and 2 s).',
    );
  });

  it('one read, then a second past its lease unchanged (lockboard why --settle): gone', async () => {
    const r = reader();
    const hourAgo = leaseAt(T0 - 3_600_000, 15);
    const first = await r.judge(hourAgo, T0);
    expect([first.verdict, first.settleMs]).toEqual(['unknown', 16_000]);
    const second = await r.judge(hourAgo, T0 + 16_000);
    expect(second.verdict).toBe('gone');
    expect(second.sentence).toMatch(/^Holder gone: no Pod named ctrl-7d9f in namespace apps .* past its 15 s lease\.$/);
  });

  it('with Nodes this identity may not list: says the Node is unchecked, never "nor a Node of that name"', async () => {
    const v = await reader([], { nodesForbidden: true }).judge(leaseAt(T0), T0);
    expect(v.verdict).toBe('unknown');
    expect(v.sentence).toMatch(
      /no Pod named ctrl-7d9f in namespace apps \(a Node of that name unchecked: this identity may not list nodes\)/,
    );
  });

  it('a Lease with no duration and no renewals seen stays unknown: nothing read settles it', async () => {
    const l = leaseAt(T0);
    delete l.spec!.leaseDurationSeconds;
    const r = reader();
    await r.judge(l, T0);
    const v = await r.judge(l, T0 + 3_600_000);
    expect(v.verdict).toBe('unknown');
    expect(v.sentence).toMatch(/records no duration and no renewals were seen, so nothing read settles it/);
  });
});

describe('the Pod a Lease holder names, found', () => {
  const pod = (o: Partial<PodFacts>): PodFacts => ({ name: 'ctrl-7d9f', phase: 'Running', ...o });

  it('being deleted: unknown even with its Lease long unrenewed, naming when its grace period ends', async () => {
    const deleting = pod({ deleting: '2026-11-29T05:00:30Z', graceSeconds: 30 });
    const r = reader([deleting]);
    const l = leaseAt(T0 - 3_600_000, 15);
    for (const now of [T0, T0 + 20_000]) {
      const v = await r.judge(l, now);
      expect(v.verdict).toBe('unknown');
      expect(v.sentence).toMatch(
        /its Pod ctrl-7d9f in namespace apps is being deleted \(its 30 s grace period ends at 2026-11-29T05:00:30Z\): it runs until its containers stop, so it is not gone/,
      );
    }
  });

  it('finished (Failed): unknown while its Lease may renew, gone once it has stopped past its bound', async () => {
    const r = reader([pod({ phase: 'Failed' })]);
    const l = leaseAt(T0 - 3_600_000, 15);
    const first = await r.judge(l, T0);
    expect(first.verdict).toBe('unknown');
    expect(first.sentence).toMatch(/its Pod ctrl-7d9f in namespace apps has finished \(Failed\), but its identity/);
    const later = await r.judge(l, T0 + 16_000);
    expect(later.verdict).toBe('gone');
    expect(later.sentence).toMatch(/has finished \(Failed\), and its Lease has not changed for 16.0 s, past its 15 s/);
  });

  it('finished, yet its Lease renewed: never gone (the identity names something else that renews)', async () => {
    const verdicts = await readEvery500ms(Infinity, T0 + 60_000, reader([pod({ phase: 'Succeeded' })]));
    expect(verdicts.filter(([, v]) => v.verdict === 'gone')).toEqual([]);
  });
});
