// A PostgreSQL source where holders write what they like (#39 items 1, 2): hostile text in lock rows, an oversized
// row, and a forged lockboard_audit row cost only themselves; the source lists in the library, the API and the CLI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '@/lib/lock/audit/record';
import { openSource, parseSource } from '@/lib/lock/stores';
import { runCli } from '../helpers/cli';
import { HOSTILE_TEXT, RAW_UNSAFE, textFieldsAreText } from '../helpers/fuzz';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';
import { trustAuditRecords } from '@/lib/lock/audit/trust';

const OPERATOR = 'ops@example.com';
let pg: TestPostgres;
let routes: Routes;

beforeAll(async () => {
  pg = await startPostgres();
  await pg.admin.query(
    `CREATE TABLE shedlock (name varchar(300) PRIMARY KEY, lock_until timestamp, locked_at timestamp, locked_by text)`,
  );
  const insert = (name: string, by: string) =>
    pg.admin.query(
      `INSERT INTO shedlock VALUES ($1, timezone('utc', now()) + interval '10 minutes', timezone('utc', now()), $2)`,
      [name, by],
    );
  await insert('report', 'app-1');
  for (const [i, text] of HOSTILE_TEXT.entries()) await insert(`hostile-${i}-${text}`, text);
  await insert('oversized', 'y'.repeat(200 * 1024));
  await pg.admin.query(
    `CREATE TABLE lockboard_audit (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), event text NOT NULL, lock text NOT NULL, fields jsonb NOT NULL DEFAULT '{}')`,
  );
  await pg.admin.query(
    `INSERT INTO lockboard_audit (event, lock, fields) VALUES ('force-released', 'public.shedlock/report', '{"operator":{"forged":true},"reason":["x"]}'), ('made-up', 'public.shedlock/report', '{}')`,
  );
  Object.assign(process.env, { LOCKBOARD_SOURCES: pg.url, LOCKBOARD_OPERATORS: OPERATOR, NEXTAUTH_SECRET: SECRET });
  delete process.env.LOCKBOARD_BUCKET;
  delete process.env.LOCKBOARD_PREFIXES;
  routes = await importRoutes();
}, 60_000);
afterAll(() => pg?.stop());

describe('untrusted rows on PostgreSQL', () => {
  it('lists every lock row but the oversized one, fields as text, in the library and the API', async () => {
    const store = await openSource(parseSource(pg.url), { env: {}, role: 'cli' });
    try {
      const { locks } = await store.list();
      const names = locks.map((l) => l.name);
      expect(names).toContain('public.shedlock/report');
      expect(names.filter((n) => n.startsWith('public.shedlock/hostile-'))).toHaveLength(HOSTILE_TEXT.length);
      expect(names).not.toContain('public.shedlock/oversized');
      for (const l of locks) expect(textFieldsAreText(l as never), l.name).toEqual([]);
    } finally {
      await store.close();
    }
    const res = await call(routes.locks.GET, '/api/locks?source=all', { as: OPERATOR });
    expect(res.status).toBe(200);
  });

  it('lists them in the CLI with holders’ text escaped', async () => {
    const ls = await runCli(['ls', pg.url], {});
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toContain('public.shedlock/report');
    expect(ls.stdout).not.toMatch(RAW_UNSAFE);
    expect(ls.stdout).toContain('\\x1b[2J');
  });

  it('shows a forged audit row without its wrong-typed fields, unverified, and an unknown event as unknown', async () => {
    const audit = await call(routes.audit.GET, '/api/audit?days=1', { as: OPERATOR });
    expect(audit.status).toBe(200);
    const events = audit.json.events as AuditRecord[];
    const forged = events.find((e) => e.event === 'force-released')!;
    expect(forged).toMatchObject({ verified: false });
    expect(forged.operator).toBeUndefined();
    expect(forged.reason).toBeUndefined();
    expect(events.find((e) => e.reported_event === 'made-up')).toMatchObject({ event: 'unknown' });
    const summary = await call(routes.summary.GET, '/api/audit/summary?days=1', { as: OPERATOR });
    expect(summary.status).toBe(200);
  });
});

describe('trail times on PostgreSQL', () => {
  it('dates a row by the server even when its writer sets "at" back, on insert and on update', async () => {
    const store = await openSource(parseSource(pg.url), { env: {}, role: 'cli' });
    try {
      const window = () => [new Date(Date.now() - 3 * 3_600_000), new Date(Date.now() + 60_000)] as const;
      await store.readAudit(...window()); // the trail made ready by the console (its trigger, as the table's owner)
      const before = Date.now();
      await pg.admin.query(
        `INSERT INTO lockboard_audit (at, event, lock, fields) VALUES (now() - interval '2 hours', 'force-released', 'public.shedlock/report', '{"reason":"back-dated"}')`,
      );
      await pg.admin.query(`UPDATE lockboard_audit SET at = now() - interval '2 hours' WHERE event = 'made-up'`);
      const read = trustAuditRecords(await store.readAudit(...window()));
      const forged = read.find((e) => e.reason === 'back-dated')!;
      expect(Date.parse(forged.at)).toBeGreaterThanOrEqual(before - 1_000);
      expect(forged).toMatchObject({ verified: false });
      expect(Date.parse(read.find((e) => e.reported_event === 'made-up')!.at)).toBeGreaterThanOrEqual(before - 1_000);
    } finally {
      await store.close();
    }
  });
});
