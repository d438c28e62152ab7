// One address per lock, in the README's form for every store: the rows' `address`, a webhook's body and filter, the
// held-seconds metric's label and a grant all use it, so a grant or a filter copied from the README matches, and the
// CLI takes the address itself as a lock.
import { describe, expect, it } from 'vitest';
import { resolveTarget } from '@/lib/cli/target';
import { lockAddress } from '@/lib/lock/address';
import { parseSource } from '@/lib/lock/stores';
import type { SourcedAuditRecord } from '@/lib/server/audit/trails';
import { releaseRight, sourceInScope, type Access } from '@/lib/server/auth/access';
import { someGlobMatches } from '@/lib/server/auth/glob';
import { parseGrants } from '@/lib/server/auth/grants';
import { setHeldGauge } from '@/lib/server/metrics/held-gauge';
import { scrapeGauges } from '@/lib/server/metrics/lock-gauges';
import { parseWebhooksConfig } from '@/lib/server/notify/config';
import { eventOfRecord } from '@/lib/server/notify/trail-events';
import type { Source } from '@/lib/server/sources';

/** [source as configured, lock name under it, the lock's address as the README writes it, a README-form glob]. */
const STORES: [string, string, string, string][] = [
  ['gs://tf-state/payments/', 'payments/prod.tflock', 'gs://tf-state/payments/prod.tflock', 'gs://tf-state/payments/*'],
  ['s3://locks/', 'ci/build', 's3://locks/ci/build', 's3://locks/ci/*'],
  ['redis://:pw@cache:6379/0?match=lock*', 'lock:jobs', 'redis://cache:6379/0/lock:jobs', 'redis://cache:6379/0/*'],
  [
    'postgres://u:p@db.internal:5432/payments',
    'migrations',
    'postgres://db.internal:5432/payments/migrations',
    'postgres://db.internal:5432/payments/*',
  ],
  ['mysql://u@db:3306/app', 'lockboard/nightly', 'mysql://db:3306/app/lockboard/nightly', 'mysql://db:3306/app/*'],
  ['dynamodb://tf-locks', 'state/prod', 'dynamodb://tf-locks/state/prod', 'dynamodb://tf-locks/*'],
  ['kubernetes://team-a', 'leader', 'kubernetes://team-a/leader', 'kubernetes://team-a/*'],
  ['kubernetes://', 'team-a/leader', 'kubernetes://team-a/leader', 'kubernetes://team-a/*'],
  [
    'kubernetes://?context=kind',
    'default/payments-operator',
    'kubernetes://default/payments-operator',
    'kubernetes://default/*',
  ],
  ['etcd://h1:2379/locks/', 'locks/a', 'etcd://h1:2379/locks/a', 'etcd://h1:2379/locks/*'],
  [
    'zookeeper://zk1:2181/svc',
    'svc/billing/latch',
    'zookeeper://zk1:2181/svc/billing/latch',
    'zookeeper://zk1:2181/svc/*',
  ],
  ['file:///var/locks', 'backup.lock', 'file:///var/locks/backup.lock', 'file:///var/locks/*'],
  ['azure://acct/locks/', 'jobs/nightly', 'azure://acct/locks/jobs/nightly', 'azure://acct/locks/*'],
];

const sourceOf = (url: string) => ({ ...parseSource(url, {}), store: 'test' }) as unknown as Source;
const accessOver = (glob: string): Access => {
  const file = `grants:\n  - who: [ops@example.com]\n    role: operator\n    locks: ['${glob}']\n`;
  return { role: 'operator', grants: parseGrants(file, 'access.yaml').grants } as unknown as Access;
};

describe('a lock’s address', () => {
  it.each(STORES)('%s: rows, webhook bodies and grants say %s', (url, name, address, glob) => {
    const source = sourceOf(url);
    expect(lockAddress(source, name)).toBe(address);
    // a grant in the README's form: the lock is the operator's, its source offered in the sources selector
    const access = accessOver(glob);
    expect(releaseRight(access, lockAddress(source, name))).toBe('any');
    expect(sourceInScope(access, source)).toBe(true);
    // a webhook's body names the lock by the same address, and a filter in the README's form hears it
    const record = { id: 'r1', at: new Date().toISOString(), lock: name, event: 'deleted-outside' };
    const event = eventOfRecord('t', record as unknown as SourcedAuditRecord, source, undefined);
    expect(event?.lock.address).toBe(address);
    const hooks = parseWebhooksConfig(
      'webhooks.yaml',
      `webhooks:\n  - name: ops\n    url: https://hooks.example.com/x\n    locks: ['${glob}']\n`,
      {},
    );
    expect(someGlobMatches(hooks.webhooks[0]!.locks, event!.lock.address)).toBe(true);
  });

  it.each(STORES)('%s: the CLI takes the address itself, %s', (_url, name, address) => {
    const target = resolveTarget({}, [address], { wantName: true });
    expect(lockAddress(target.spec, target.name!)).toBe(address);
    expect(target.name!.endsWith(name.split('/').pop()!)).toBe(true);
  });

  it('keeps a source alone a source for the CLI (it names no lock)', () => {
    for (const source of ['kubernetes://team-a', 'redis://cache:6379/0', 'dynamodb://tf-locks'])
      expect(() => resolveTarget({}, [source], { wantName: true }), source).toThrow(/names a source, not a lock/);
  });

  it('labels the held-seconds metric with the same address, for every store', async () => {
    const sources = STORES.map(([url]) => sourceOf(url));
    const rows = STORES.map(([, name], i) => ({ source: sources[i]!.id, name, heldMs: 60_000 }));
    const gauges = scrapeGauges();
    await setHeldGauge(gauges.held, sources, 100, async () => ({ locks: rows }));
    const text = await gauges.registry.metrics();
    const labels = [...text.matchAll(/^lockboard_lock_held_seconds\{address="([^"]*)"/gm)].map((m) => m[1]);
    for (const [, , address] of STORES) expect(labels).toContain(address);
  });
});
