// A Redis source where anyone who can SET a key writes what they like (#39 items 1, 2, 4): malformed Lockboard
// values cost only their own fields, hostile text is escaped in the CLI, and a 64 MB value is never read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSource, parseSource } from '@/lib/lock/stores';
import { runCli } from '../helpers/cli';
import { malformedBodies, textFieldsAreText } from '../helpers/fuzz';
import { startRedis, type TestRedis } from '../helpers/redis';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { trustAuditRecords } from '@/lib/lock/audit/trust';

const OPERATOR = 'ops@example.com';
const GOOD = {
  format: 'lockboard/1',
  token: '7',
  identity: 'runner-1',
  host: 'ci-3',
  pid: '42',
  purpose: 'deploy',
  ttl_ms: '60000',
  refresh_ms: '20000',
  acquired_ms: String(Date.now()),
};
const BODIES = malformedBodies(GOOD, ['identity', 'host', 'purpose']);
let r: TestRedis;
let routes: Routes;
let source: string;

beforeAll(async () => {
  r = await startRedis();
  source = `redis://127.0.0.1:${r.port}/0?match=locks:*`;
  await r.client.sendCommand(['SET', 'locks:good', JSON.stringify(GOOD), 'PX', '60000']);
  await r.client.sendCommand([
    'SET',
    'locks:issue',
    '{"format":"lockboard/1","identity":{"a":1},"host":["x",{"y":1}],"ttl_ms":"3600000"}',
  ]);
  await r.client.sendCommand(['SET', 'locks:truncated', '{"format":"lockboard/1","identity":"x"']);
  await r.client.sendCommand(['SET', 'locks:\u001b[2Jname', JSON.stringify(GOOD)]);
  for (const [label, body] of BODIES) await r.client.sendCommand(['SET', `locks:fuzz-${label}`, JSON.stringify(body)]);
  // a 64 MB value under the source's pattern, made by Redis itself (SETRANGE), and a big hash
  await r.client.sendCommand(['SETRANGE', 'locks:huge', String(64 * 1024 * 1024 - 1), 'x']);
  await r.client.sendCommand(['HSET', 'locks:big-hash', 'f', 'y'.repeat(512 * 1024)]);
  Object.assign(process.env, { LOCKBOARD_SOURCES: source, LOCKBOARD_OPERATORS: OPERATOR, NEXTAUTH_SECRET: SECRET });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
}, 60_000);
afterAll(() => r?.stop());

const netOut = async () =>
  Number(/total_net_output_bytes:(\d+)/.exec(String(await r.client.sendCommand(['INFO', 'stats'])))![1]);

describe('malformed Lockboard values on Redis', () => {
  it('lists every lock of the source through the library, each wrong-typed field dropped and named', async () => {
    const store = await openSource(parseSource(source), { env: {}, role: 'cli' });
    try {
      const { locks } = await store.list();
      expect(locks.map((l) => l.name)).toContain('locks:good');
      expect(locks.filter((l) => l.name.startsWith('locks:fuzz-'))).toHaveLength(BODIES.length);
      for (const l of locks) expect(textFieldsAreText(l as never), l.name).toEqual([]);
      const issue = locks.find((l) => l.name === 'locks:issue')!;
      expect(issue.identity).toBeUndefined();
      expect(issue.note).toMatch(/identity \(an object\), host \(a list\)/);
      expect(locks.find((l) => l.name === 'locks:fuzz-ttl_ms#1')!.note).toMatch(/ttl_ms \(an object\)/);
      expect(locks.find((l) => l.name === 'locks:good')).toMatchObject({ identity: 'runner-1', health: 'healthy' });
    } finally {
      await store.close();
    }
  });

  it('lists them in the console API and opens each one’s page', async () => {
    const res = await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR });
    expect(res.status).toBe(200);
    const names = (res.json.locks as { name: string }[]).map((l) => l.name);
    expect(names).toEqual(expect.arrayContaining(['locks:good', 'locks:issue', 'locks:\u001b[2Jname']));
    const page = await call(routes.lock.GET, '/api/locks/locks:issue', { as: OPERATOR }, { name: ['locks:issue'] });
    expect(page.status).toBe(200);
    expect(page.json.note).toMatch(/identity/);
  });

  it('lists them in the CLI, with holders’ control characters escaped in text and exact in JSON', async () => {
    const ls = await runCli(['ls', source], {});
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toContain('locks:good');
    expect(ls.stdout).toContain('locks:\\x1b[2Jname');
    expect(ls.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u202e]/);
    const json = await runCli(['ls', source, '--json'], {});
    const names = (JSON.parse(json.stdout) as { locks: { name: string }[] }).locks.map((l) => l.name);
    expect(names).toContain('locks:\u001b[2Jname');
    const status = await runCli(['status', source, 'locks:fuzz-purpose~0'], {});
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('\\x1b[2J\\x1b[HALL LOCKS HEALTHY');
  });
});

describe('bounded reads on Redis', () => {
  it('never reads a 64 MB value: Redis sends next to nothing and the CLI’s memory stays flat', async () => {
    const before = await netOut();
    const res = await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR });
    expect(res.status).toBe(200);
    expect((res.json.locks as { name: string }[]).map((l) => l.name)).not.toContain('locks:huge');
    expect((await netOut()) - before).toBeLessThan(1024 * 1024);
    const rss = async (url: string) => {
      const ls = await runCli(['ls', url], {
        NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(REPORT)}`,
      });
      expect(ls.code, ls.stderr).toBe(0);
      return Number(/maxrss=(\d+)/.exec(ls.stderr)![1]) * 1024;
    };
    const status = await runCli(['status', source, 'locks:huge'], {});
    expect(status.stdout).toMatch(/larger than 64 KiB: not read/);
    const withHuge = await rss(source);
    await r.client.sendCommand(['DEL', 'locks:huge']);
    const without = await rss(source);
    console.log(
      `lockboard ls peak RSS: ${(without / 2 ** 20).toFixed(1)} MB without, ${(withHuge / 2 ** 20).toFixed(1)} MB with a 64 MB value`,
    );
    expect(withHuge - without).toBeLessThan(16 * 2 ** 20);
  }, 60_000);
});

describe('trail times on Redis', () => {
  it('dates a back-dated forged record by its stream id (the server’s clock), not by its own "at"', async () => {
    const before = Date.now();
    const back = new Date(before - 2 * 3_600_000).toISOString();
    const fields = ['event', 'force-released', 'lock', 'locks:good', 'reason', 'back-dated', 'at', back];
    await r.client.sendCommand(['XADD', 'lockboard:audit', '*', ...fields]);
    const store = await openSource(parseSource(source), { env: {}, role: 'cli' });
    try {
      const read = await store.readAudit(new Date(before - 3 * 3_600_000), new Date(Date.now() + 60_000));
      const forged = trustAuditRecords(read).find((e) => e.reason === 'back-dated')!;
      expect(Date.parse(forged.at)).toBeGreaterThanOrEqual(before - 1_000);
      expect(forged).toMatchObject({ verified: false });
      expect(forged.at_from).toBeUndefined(); // the store's
    } finally {
      await store.close();
    }
  });
});

const REPORT = "process.on('exit',()=>process.stderr.write('maxrss='+process.resourceUsage().maxRSS+'\\n'))";
