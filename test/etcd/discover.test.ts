// lockboard discover on a real etcd: every key is read as `ls etcd://HOST:PORT/` reads it, the locks grouped by
// their first key segment into sources ls takes (etcdctl's `ci/`, python3-etcd3's `/locks/`), plain keys not
// named; together they are exactly what ls lists at the root; the revision does not move (nothing written).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEtcd, type Contender, type TestEtcd } from '../helpers/etcd';
import { discover, lsFormats } from '../cli/discover-fixtures';
import { npmEtcd3Lock, pythonEtcd3Lock } from './fixtures';

let e: TestEtcd;
let held: Contender;
let releaseNpm: () => Promise<void>;
let root: string;

const revision = () =>
  (JSON.parse(e.ctl('endpoint', 'status', '-w', 'json')) as { Status: { header: { revision: number } } }[])[0]!.Status
    .header.revision;

beforeAll(async () => {
  e = await startEtcd();
  root = `etcd://${e.endpoint}/`;
  held = await e.contender(['lock', 'ci/jobs']); // etcdctl lock ci/jobs: ci/jobs/<lease>
  pythonEtcd3Lock(e.endpoint, 'backup'); // /locks/backup
  releaseNpm = await npmEtcd3Lock(e.endpoint, 'deploy'); // deploy
  for (let i = 0; i < 30; i++) e.ctl('put', `config/key-${i}`, `value ${i}`);
}, 60_000);
afterAll(async () => {
  await releaseNpm?.();
  await held?.stop();
  await e?.stop();
});

describe('lockboard discover etcd://HOST:PORT', () => {
  it('finds each lock prefix with its formats, exactly what ls lists, and writes nothing', async () => {
    const before = revision();
    const { report, bySource } = await discover(`etcd://${e.endpoint}`);
    expect(report.unreachable).toBeUndefined();
    expect(Object.keys(bySource).sort()).toEqual([root, `${root}/locks/`, `${root}ci/`].sort());
    expect(bySource[`${root}ci/`]!.formats).toEqual(await lsFormats(`${root}ci/`));
    expect(bySource[`${root}/locks/`]!.formats).toEqual(await lsFormats(`${root}/locks/`));
    const found: Record<string, number> = {};
    for (const c of report.candidates) for (const [f, n] of Object.entries(c.formats)) found[f] = (found[f] ?? 0) + n;
    expect(found).toEqual(await lsFormats(root));
    expect(revision()).toBe(before);
  });

  it('stops at the request budget', async () => {
    const { report } = await discover(`etcd://${e.endpoint}`, { maxRequests: 1 });
    expect(report.requests).toBe(1);
    expect(report.cappedBy).toBe('requests');
  });

  it('refuses a target with a key prefix (a usage error naming the form)', async () => {
    await expect(discover(`etcd://${e.endpoint}/locks/`)).rejects.toThrow(/expected etcd:\/\/HOST:PORT/);
  });
});
