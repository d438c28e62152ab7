// lockboard discover on a real kube-apiserver: `kubernetes://` is listed as `ls kubernetes://` lists it and its
// held Leases grouped by namespace into sources ls takes (node heartbeats and apiserver identities are not locks and
// name no namespace); no Lease is created (no audit Lease either).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKube, type Candidate, type TestKube } from '../helpers/kubernetes';
import { discover, lsFormats } from '../cli/discover-fixtures';

let kube: TestKube;
const leaders: Candidate[] = [];

const leaseNames = () =>
  (
    JSON.parse(kube.kubectl(['get', 'leases', '-A', '-o', 'json']).stdout) as {
      items: { metadata: { namespace: string; name: string } }[];
    }
  ).items
    .map((l) => `${l.metadata.namespace}/${l.metadata.name}`)
    .sort();

beforeAll(async () => {
  kube = await startKube();
  expect(kube.kubectl(['create', 'namespace', 'team-b']).code).toBe(0);
  for (const [namespace, name, id] of [
    ['default', 'ctrl-a', 'pod-a'],
    ['team-b', 'ctrl-b', 'pod-b'],
  ] as const) {
    const leader = kube.candidate({ namespace, name, id });
    leaders.push(leader);
    await leader.waitFor('LEADING');
  }
}, 120_000);
afterAll(async () => {
  for (const l of leaders) await l.stop();
  await kube?.stop();
});

describe('lockboard discover kubernetes://', () => {
  it('finds the namespaces holding leader Leases, with the formats ls lists there, creating no Lease', async () => {
    const before = leaseNames();
    const { report, bySource } = await discover('kubernetes://', {}, kube.env);
    expect(report.unreachable).toBeUndefined();
    expect(Object.keys(bySource).sort()).toEqual(['kubernetes://default', 'kubernetes://team-b']);
    for (const [source, c] of Object.entries(bySource)) {
      expect(c.formats).toEqual(await lsFormats(source, kube.env));
      expect(c.formats).toEqual({ 'client-go-lease': 1 });
    }
    expect(leaseNames()).toEqual(before);
  });

  it('refuses a namespace target: that is a source, for ls', async () => {
    await expect(discover('kubernetes://default', {}, kube.env)).rejects.toThrow(/expected kubernetes:\/\//);
  });
});
