// Counts by the holder's verdict over the whole selection, through the route handlers, on lock files held by real
// Debian python3 processes: the counts cover every lock (not the window), each matches `?verdict=`'s count, a
// viewer's counts cover only the locks in their grants, the stream's counts carry them as a holder's lock is left
// behind, and a batch release asked "only if gone" releases a gone holder's lock and refuses an alive one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { openStream } from '../helpers/stream';
import { killAndWait, MACHINE_LOCK, need, PYTHON, startHolder, stopAll, tempDir } from '../files/tools';

const OPS = 'ops@example.com';
const ANN = 'ann@example.com'; // a viewer of g1.lock and live.lock only
let routes: Routes;
let dir: string;
type Counts = Record<'gone' | 'stalled' | 'alive' | 'unknown', number>;
type Window = { locks: { name: string; verdict?: string; version: string }[]; matched: number; verdicts: Counts };

/** A pid no process has now: a python3 that printed its pid and exited. */
async function deadPid(): Promise<number> {
  const p = await startHolder(PYTHON, ['-c', 'import os; print(os.getpid(), flush=True)']);
  await new Promise((r) => (p.exitCode === null ? p.once('exit', r) : r(null)));
  return p.pid!;
}

beforeAll(async () => {
  need(PYTHON, 'apt-get install python3');
  dir = tempDir();
  for (const name of ['g1', 'g2', 'g3']) await killAndWait(await startHolder(PYTHON, ['-c', MACHINE_LOCK, name, dir]));
  await startHolder(PYTHON, ['-c', MACHINE_LOCK, 'live', dir]);
  fs.writeFileSync(path.join(dir, 'far.lock'), '4711\nbuild-host-7\n'); // held on another host: unknown
  const access = path.join(dir, '..', `${path.basename(dir)}-access.yaml`);
  fs.writeFileSync(
    access,
    `grants:
  - who: [${OPS}]
    role: operator
    locks: ['*']
  - who: [${ANN}]
    role: viewer
    locks: ['file://${dir}/g1.lock', 'file://${dir}/live.lock']
`,
  );
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: `file://${dir}`,
    LOCKBOARD_ACCESS_FILE: access,
    NEXTAUTH_SECRET: SECRET,
  });
  for (const v of ['LOCKBOARD_BUCKET', 'LOCKBOARD_PREFIXES', 'LOCKBOARD_OPERATORS', 'LOCKBOARD_VIEWERS'])
    delete process.env[v];
  routes = await importRoutes();
}, 60_000);

afterAll(async () => {
  await stopAll();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (dir) fs.rmSync(path.join(dir, '..', `${path.basename(dir)}-access.yaml`), { force: true });
});

const list = async (qs: string, as = OPS) => {
  const r = await call(routes.locks.GET, `/api/locks?source=all&${qs}`, { as });
  expect(r.status, r.text).toBe(200);
  return r.json as unknown as Window;
};

describe('counts by verdict', () => {
  it('counts every lock of the selection, not the window, and each count is what ?verdict= matches', async () => {
    const one = await list('limit=1');
    expect(one.locks).toHaveLength(1);
    expect(one.verdicts).toEqual({ gone: 3, stalled: 0, alive: 1, unknown: 1 });
    for (const v of ['gone', 'stalled', 'alive', 'unknown'] as const) {
      const only = await list(`verdict=${v}`);
      expect(only.matched, v).toBe(one.verdicts[v]);
      expect(only.locks.every((l) => l.verdict === v)).toBe(true);
      // the counts stay those of the whole selection under a verdict filter (the chips do not move when one is pressed)
      expect(only.verdicts).toEqual(one.verdicts);
    }
    expect((await list('verdict=gone')).locks.map((l) => l.name)).toEqual(['g1.lock', 'g2.lock', 'g3.lock']);
  });

  it("counts only the locks in a viewer's grants", async () => {
    expect((await list('', ANN)).verdicts).toEqual({ gone: 1, stalled: 0, alive: 1, unknown: 0 });
    expect((await list('verdict=gone', ANN)).locks.map((l) => l.name)).toEqual(['g1.lock']);
  });

  it('refuses a verdict that is not one, naming the values', async () => {
    const r = await call(routes.locks.GET, '/api/locks?source=all&verdict=dead', { as: OPS });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/verdict/);
    expect(r.text).toMatch(/gone/);
  });

  it("carries the counts by verdict in the stream's counts as a holder's lock is left behind", async () => {
    const s = await openStream(routes.stream.GET, OPS, { path: '/api/locks/stream?source=all' });
    try {
      const snapshot = await s.next('snapshot');
      expect(snapshot.verdicts).toEqual({ gone: 3, stalled: 0, alive: 1, unknown: 1 });
      // a lock file naming a process that no longer runs on this host (filelock's `<pid>\n<host>\n`): gone
      fs.writeFileSync(path.join(dir, 'g4.lock'), `${await deadPid()}\n${os.hostname()}\n`);
      const deadline = Date.now() + 10_000;
      let counts = (await s.next('counts', 10_000)).verdicts as Counts;
      while (counts.gone !== 4 && Date.now() < deadline)
        counts = (await s.next('counts', deadline - Date.now())).verdicts as Counts;
      expect(counts).toEqual({ gone: 4, stalled: 0, alive: 1, unknown: 1 });
    } finally {
      await s.close();
    }
  });

  it('releases a gone lock "only if gone" in a batch, and refuses an alive one naming its verdict', async () => {
    const all = await list('');
    const body = (name: string) => {
      const l = all.locks.find((x) => x.name === name)!;
      return { name, bucket: `file://${dir}`, version: l.version, ifGone: true };
    };
    const r = await call(routes.batch.POST, '/api/locks/release-batch', {
      as: OPS,
      method: 'POST',
      body: { reason: 'holders gone', locks: [body('g4.lock'), body('live.lock')] },
    });
    expect(r.status, r.text).toBe(200);
    const results = r.json.results as { name: string; outcome: string; message: string }[];
    expect(results.map((x) => [x.name, x.outcome])).toEqual([
      ['g4.lock', 'released'],
      ['live.lock', 'not-attempted'],
    ]);
    expect(results[1]!.message).toMatch(/only if gone.*judged alive.*Nothing was touched/);
    expect(fs.existsSync(path.join(dir, 'g4.lock'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'live.lock'))).toBe(true);
  });
});
