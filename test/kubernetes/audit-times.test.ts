// The Kubernetes trail's times (#39 item 3): a record is one annotation of the lockboard-audit Lease, and annotations
// carry no time of their own, so a back-dated forged record is shown at its writer's time marked as reported, and
// the console's own signed record at its signed time; never a writer's time passed off as the store's.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setAuditKey, trustAuditRecords } from '@/lib/lock/audit/trust';
import type { LockStore } from '@/lib/lock/store';
import { openSource, parseSource } from '@/lib/lock/stores';
import { startKube, type TestKube } from '../helpers/kubernetes';

let kube: TestKube;
let store: LockStore;

beforeAll(async () => {
  kube = await startKube();
  setAuditKey('k'.repeat(40));
  store = await openSource(parseSource('kubernetes://default'), { env: { ...process.env, ...kube.env }, role: 'cli' });
}, 120_000);
afterAll(async () => {
  setAuditKey(undefined);
  await store?.close();
  await kube?.stop();
});

it('shows a back-dated forged annotation as reported and the console’s record at its signed time', async () => {
  const id = await store.record({ event: 'force-released', lock: 'ctrl', operator: 'ops@example.com', reason: 'real' });
  const back = new Date(Date.now() - 2 * 3_600_000).toISOString();
  const forged = { event: 'force-released', lock: 'ctrl', operator: 'operator@demo.lockboard', reason: 'forged' };
  const set = kube.kubectl([
    'annotate',
    'lease',
    'lockboard-audit',
    '-n',
    'default',
    `audit.lockboard.dev/00000000000001-forged=${JSON.stringify({ ...forged, at: back })}`,
  ]);
  expect(set.code, set.stderr).toBe(0);
  const read = trustAuditRecords(
    await store.readAudit(new Date(Date.now() - 3 * 3_600_000), new Date(Date.now() + 60_000)),
  );
  expect(read.find((e) => e.reason === 'forged')).toMatchObject({ at: back, at_from: 'reported', verified: false });
  const real = read.find((e) => e.id === id)!;
  expect(real).toMatchObject({ at_from: 'signed', verified: true, at: real.signed_at });
}, 60_000);
