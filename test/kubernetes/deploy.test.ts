// The manifests that run the console in a cluster, checked by the real apiserver (with RBAC): accepted by
// `kubectl apply --dry-run=server`, and once applied the console's ServiceAccount may get, list, watch and update
// Leases in its namespace, and create them there (webhook claims), and nothing else.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKube, type TestKube } from '../helpers/kubernetes';

let kube: TestKube;
const SA = 'system:serviceaccount:lockboard:lockboard-console';

beforeAll(async () => {
  kube = await startKube({ rbac: true });
});
afterAll(async () => {
  await kube?.stop();
});

describe('deploy/kubernetes', () => {
  it('is accepted by kubectl apply --dry-run=server against the real apiserver', () => {
    expect(readdirSync('deploy/kubernetes').filter((f) => f.endsWith('.yaml')).length).toBeGreaterThanOrEqual(4);
    const ns = kube.kubectl(['apply', '-f', 'deploy/kubernetes/namespace.yaml']);
    expect(ns.code, ns.stderr).toBe(0);
    const dry = kube.kubectl(['apply', '--dry-run=server', '-f', 'deploy/kubernetes/']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/deployment.apps\/lockboard-console created \(server dry run\)/);
    expect(dry.stdout).toMatch(/role.rbac.authorization.k8s.io\/lockboard-leases created \(server dry run\)/);
  });

  it('gives the console get, list, watch, update and create (claims) on Leases in its namespace, and nothing else', () => {
    const applied = kube.kubectl(['apply', '-f', 'deploy/kubernetes/']);
    expect(applied.code, applied.stderr).toBe(0);
    const can = (verb: string, resource: string, ns = 'lockboard') =>
      kube.kubectl(['auth', 'can-i', verb, resource, '-n', ns, `--as=${SA}`]).stdout.trim();
    for (const verb of ['get', 'list', 'watch', 'update', 'create'])
      expect(can(verb, 'leases.coordination.k8s.io'), verb).toBe('yes');
    for (const verb of ['delete', 'patch', 'deletecollection'])
      expect(can(verb, 'leases.coordination.k8s.io'), verb).toBe('no');
    expect(can('get', 'secrets')).toBe('no');
    expect(can('list', 'configmaps')).toBe('no');
    expect(can('list', 'leases.coordination.k8s.io', 'default')).toBe('no');
    expect(can('list', 'pods')).toBe('no'); // the holder lookup is an option (holder-access.yaml.example)
  });

  it('grants get and list on Pods (and Nodes) for the holder lookup only where holder-access is applied', () => {
    const example = readFileSync('deploy/kubernetes/holder-access.yaml.example', 'utf8').replace(
      /NAMESPACE/g,
      'lockboard',
    );
    const applied = kube.kubectl(['apply', '-f', '-'], example);
    expect(applied.code, applied.stderr).toBe(0);
    const can = (verb: string, resource: string, ns = 'lockboard') =>
      kube.kubectl(['auth', 'can-i', verb, resource, '-n', ns, `--as=${SA}`]).stdout.trim();
    for (const verb of ['get', 'list']) expect(can(verb, 'pods'), verb).toBe('yes');
    expect(can('list', 'nodes')).toBe('yes');
    expect(can('delete', 'pods')).toBe('no');
    expect(can('list', 'pods', 'default')).toBe('no');
  });
});
