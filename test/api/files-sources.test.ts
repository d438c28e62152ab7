// A lock-file directory in the console, through the route handlers: the live holder named in the listing, a release
// refused with the process named (409, the file kept), a crashed holder's file released (200), and the history.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockInfo } from '@/lib/lock';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { killAndWait, MACHINE_LOCK, PYTHON, startHolder, stopAll, tempDir } from '../files/tools';

const OPERATOR = 'ops@example.com';
let routes: Routes;
let dir: string;
type View = LockInfo & { store: string; version: string; source: string };

beforeAll(async () => {
  dir = tempDir();
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: `file://${dir}`,
    LOCKBOARD_OPERATORS: OPERATOR,
    NEXTAUTH_SECRET: SECRET,
  });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
}, 30_000);
afterAll(async () => {
  await stopAll();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('lock-file sources in the console', () => {
  it('names the live holder, refuses its release (409) naming the process, then releases it once it died', async () => {
    const holder = await startHolder(PYTHON, ['-c', MACHINE_LOCK, 'report', dir]);
    const list = async () =>
      (await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR })).json.locks as View[];
    const [seen] = await list();
    expect([seen!.store, seen!.name, seen!.health]).toEqual(['files', 'report.lock', 'healthy']);
    expect(seen!.identity).toMatch(new RegExp(`^pid ${holder.pid} \\(python3`));
    const body = { name: 'report.lock', bucket: `file://${dir}`, version: seen!.version, reason: 'stuck' };
    const refused = await call(routes.release.POST, '/api/locks/release', { as: OPERATOR, method: 'POST', body });
    expect(refused.status).toBe(409);
    expect(refused.json.message ?? refused.text).toMatch(new RegExp(`pid ${holder.pid}.*two holders`));
    expect(refused.json.message ?? refused.text).toMatch(/The holder is alive: clearing makes two holders/);
    expect(seen!.verdict).toBe('alive');
    // acknowledged: the verdict lets it through, and the store's own rule still refuses a live process's file
    const acknowledged = { ...body, acknowledgeAlive: true };
    const still = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: acknowledged,
    });
    expect(still.status).toBe(409);
    expect(still.json.message ?? still.text).not.toMatch(/acknowledgeAlive/);
    const ifGone = await call(routes.release.POST, '/api/locks/release', {
      as: OPERATOR,
      method: 'POST',
      body: { ...acknowledged, ifGone: true },
    });
    expect(ifGone.status).toBe(409);
    expect(ifGone.json.message ?? ifGone.text).toMatch(/only if gone.*judged alive/);
    expect(fs.existsSync(`${dir}/report.lock`)).toBe(true);
    await killAndWait(holder);
    const [stale] = await list();
    expect(stale!.health).toBe('expired');
    expect(stale!.verdict).toBe('gone');
    const gone = (await call(routes.locks.GET, '/api/locks?source=all&verdict=gone', { as: OPERATOR })).json as {
      locks: View[];
      verdicts: Record<string, number>;
    };
    expect(gone.locks.map((l) => l.name)).toEqual(['report.lock']);
    expect(gone.verdicts).toMatchObject({ gone: 1 });
    const done = await call(routes.release.POST, '/api/locks/release', { as: OPERATOR, method: 'POST', body });
    expect(done.status).toBe(200);
    expect(fs.existsSync(`${dir}/report.lock`)).toBe(false);
  });
});
