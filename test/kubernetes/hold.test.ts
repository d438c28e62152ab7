// A hold on a Kubernetes Lease against a real kube-apiserver and client-go's leader election (the kube-leader
// candidate): refused without --ack-leader-election (2, nothing written); with it, the candidate sees the hold as the
// leader (its holderIdentity naming the operator, the end and the reason) and does not lead until the Lease's
// duration ran out; unhold lets a waiting candidate lead at its next retry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { startKube, type Candidate, type TestKube } from '../helpers/kubernetes';

let kube: TestKube;
const candidates: Candidate[] = [];
beforeAll(async () => {
  kube = await startKube();
}, 120_000);
afterAll(async () => {
  for (const c of candidates) await c.stop();
  await kube?.stop();
});

const source = 'kubernetes://default';
const hold = (name: string, ...args: string[]) =>
  runCli(['hold', source, name, '--reason', 'INC-42 failover drill', '--operator', 'kim', ...args], kube.env);

describe('lockboard hold on a Kubernetes Lease', () => {
  it('is refused without --ack-leader-election (2), naming why, with nothing written', async () => {
    const r = await hold('scheduler', '--for', '1h');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('holding it stops every candidate from leading');
    expect(kube.kubectl(['get', 'lease', 'scheduler', '-n', 'default']).code).not.toBe(0);
  });

  it('keeps a client-go candidate from leading until the Lease’s duration ran out', async () => {
    const started = Date.now();
    const r = await hold('scheduler', '--for', '8s', '--ack-leader-election');
    expect(r.code, r.stderr).toBe(0);
    const c = kube.candidate({ namespace: 'default', name: 'scheduler', id: 'pod-a' });
    candidates.push(c);
    await c.waitFor('NEW_LEADER kim (lockboard hold until', 10_000);
    expect(
      c.lines.some(
        (l) => l.startsWith('NEW_LEADER kim (lockboard hold until') && l.endsWith(': INC-42 failover drill'),
      ),
    ).toBe(true);
    await c.waitFor('LEADING', 30_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(7_000);
    await c.stop();
  }, 60_000);

  it('lets a waiting candidate lead once unhold ended the hold', async () => {
    const r = await hold('controller', '--for', '1h', '--ack-leader-election');
    expect(r.code, r.stderr).toBe(0);
    const again = await hold('controller', '--for', '1h', '--ack-leader-election');
    expect(again.code).toBe(11);
    const c = kube.candidate({ namespace: 'default', name: 'controller', id: 'pod-b' });
    candidates.push(c);
    await c.waitFor('NEW_LEADER kim (lockboard hold until', 10_000);
    expect(c.lines.some((l) => l.startsWith('LEADING'))).toBe(false);
    const end = await runCli(['unhold', source, 'controller'], kube.env);
    expect(end.code, end.stderr).toBe(0);
    await c.waitFor('LEADING', 15_000);
    await c.stop();
  }, 60_000);
});
