// The console's holds (#60): POST /api/locks/hold and /api/locks/unhold on the emulator, through the CLI's own
// placeHold / endHold. Operators over the lock only (a releaser, a viewer, an operator of other locks: 403, nothing
// written); the format's limits a 400 in the library's words; a held lock a 409 naming its holder; an unhold of a
// replaced hold a 409 with nothing deleted; hold-placed / hold-ended in the store's trail; garbage never a 5xx.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock } from '@/lib/lock';
import { openSource, parseSource } from '@/lib/lock/stores';
import type { LockInfo } from '@/lib/lock/types';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';

const OPS = 'ops@example.com'; // operator over every lock
const TEAM = 'lee@example.com'; // operator over ci/* only
const RELEASER = 'rel@example.com'; // releaser over every lock
const VIEWER = 'vic@example.com'; // viewer over every lock
const TF = 'prod/default.tflock';

let t: Target;
let routes: Routes & {
  hold: typeof import('@/app/api/locks/hold/route');
  unhold: typeof import('@/app/api/locks/unhold/route');
};

beforeAll(async () => {
  t = await startTestEmulator();
  const file = join(mkdtempSync(join(tmpdir(), 'lockboard-hold-')), 'access.yaml');
  const grant = (who: string, role: string, locks: string) =>
    `  - who: [${who}]\n    role: ${role}\n    locks: ['${locks}']\n`;
  writeFileSync(
    file,
    `grants:\n${grant(OPS, 'operator', '*')}${grant(TEAM, 'operator', 'gs://test-bucket/ci/*')}${grant(RELEASER, 'releaser', '*')}${grant(VIEWER, 'viewer', '*')}`,
  );
  Object.assign(process.env, {
    LOCKBOARD_BUCKET: t.bucket,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    LOCKBOARD_PREFIXES: 'prod/,ci/',
    LOCKBOARD_ACCESS_FILE: file,
    NEXTAUTH_SECRET: SECRET,
  });
  for (const v of ['LOCKBOARD_SOURCES', 'LOCKBOARD_OPERATORS', 'LOCKBOARD_VIEWERS']) delete process.env[v];
  routes = {
    ...(await importRoutes()),
    hold: await import('@/app/api/locks/hold/route'),
    unhold: await import('@/app/api/locks/unhold/route'),
  };
});
afterAll(() => t?.close());

const hold = (as: string, body: unknown) => call(routes.hold.POST, '/api/locks/hold', { as, method: 'POST', body });
const unhold = (as: string, body: unknown) =>
  call(routes.unhold.POST, '/api/locks/unhold', { as, method: 'POST', body });
const seen = async (name: string) => {
  const r = await call(routes.lock.GET, `/api/locks/${name}`, { as: OPS }, { name: name.split('/') });
  return 'absent' in r.json ? null : (r.json as unknown as LockInfo);
};
const message = (r: { json: Record<string, unknown> }) => (r.json.error as { message: string }).message;

async function trail(name: string) {
  const env = { LOCKBOARD_GCS_ENDPOINT: t.emulator!.url };
  const store = await openSource(parseSource(`gs://${t.bucket}/prod/`, env), { env, role: 'cli' });
  try {
    const records = await store.readAudit(new Date(Date.now() - 3_600_000), new Date(Date.now() + 3_600_000), name);
    return records.filter((r) => r.event.startsWith('hold-')).map((r) => [r.event, r.operator, r.reason]);
  } finally {
    await store.close();
  }
}

describe('POST /api/locks/hold', () => {
  it('offers the store’s formats, the one that fits the name marked (GET, operators only)', async () => {
    const r = await call(routes.hold.GET, `/api/locks/hold?name=${encodeURIComponent(TF)}`, { as: OPS });
    expect(r.status, r.text).toBe(200);
    const formats = r.json.formats as { id: string; fits?: boolean }[];
    expect(formats.map((f) => [f.id, f.fits ?? false])).toEqual([
      ['terraform', true],
      ['lockboard', false],
    ]);
    const viewer = await call(routes.hold.GET, `/api/locks/hold?name=${encodeURIComponent(TF)}`, { as: VIEWER });
    expect(viewer.status).toBe(403);
  });

  it('refuses a releaser, a viewer and an operator of other locks (403 in words), writing nothing', async () => {
    const body = { name: TF, reason: 'INC-123 state surgery', for: '2h' };
    for (const [who, words] of [
      [RELEASER, 'This action needs the operator role; you are a releaser.'],
      [VIEWER, 'This action needs the operator role; you are a viewer.'],
      [TEAM, 'this needs the operator role over it, and none of your grants gives it'],
    ] as const) {
      const r = await hold(who, body);
      expect(r.status, who).toBe(403);
      expect(message(r)).toContain(words);
    }
    const team = await unhold(TEAM, { name: TF });
    expect(team.status).toBe(403);
    expect(await seen(TF)).toBeNull();
    expect(await trail(TF)).toEqual([]);
  });

  it('refuses what the format cannot take with a 400 naming the limit, and garbage, never a 5xx; nothing written', async () => {
    const cases: [unknown, RegExp][] = [
      [{ name: TF, reason: 'x'.repeat(501), for: '1h' }, /--reason is 501 characters; .* at most 500/],
      [{ name: TF, reason: 'line one\nline two', for: '1h' }, /control characters/],
      [{ name: TF, reason: '   ', for: '1h' }, /--reason is required/],
      [{ name: TF, reason: 'long', for: '31d' }, /longer than Terraform LockInfo can hold: at most 30d/],
      [{ name: TF, reason: 'long', for: '400d' }, /"for" must be a duration like 30m, 2h or 3d, at most 366 days/],
      [{ name: TF, reason: 'short', for: '0s' }, /at least 1s/],
      [{ name: TF, reason: 'fmt', for: '1h', format: 'nope' }, /--format nope is not one this store can hold in/],
      [{ name: 'elsewhere/x', reason: 'r', for: '1h' }, /not inside a configured source/],
      [{ name: TF, reason: 7, for: '1h' }, /reason/],
      [{ name: TF, reason: 'r' }, /for/],
      [[], /./],
      [null, /./],
    ];
    for (const [body, words] of cases) {
      const r = await hold(OPS, body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(message(r)).toMatch(words);
    }
    const raw = (rawBody: string, type: string) =>
      call(routes.hold.POST, '/api/locks/hold', {
        as: OPS,
        method: 'POST',
        rawBody,
        headers: { 'content-type': type },
      });
    expect((await raw('{"name":', 'application/json')).status).toBe(400);
    expect((await raw('name=x', 'text/plain')).status).toBe(415);
    for (const body of [{}, { name: 5 }, { name: TF, version: 7 }, 'x'])
      expect((await unhold(OPS, body)).status).toBe(400);
    expect(await seen(TF)).toBeNull();
    expect(await trail(TF)).toEqual([]);
  });

  it('holds as Terraform would read it, recorded as hold-placed; a second hold is a 409 naming the holder', async () => {
    const r = await hold(OPS, { name: TF, reason: 'INC-123 state surgery', for: '2h' });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ outcome: 'held', format: 'terraform', endsItself: false });
    expect(Date.parse(r.json.until as string) - Date.now()).toBeGreaterThan(2 * 3_600_000 - 60_000);
    const lock = (await seen(TF))!;
    expect(lock.identity).toBe(`${OPS} (lockboard hold until ${r.json.until as string})`);
    expect(lock.details).toContainEqual(['Info', 'INC-123 state surgery']);
    expect(r.json.version).toBe(lock.version);

    const again = await hold(OPS, { name: TF, reason: 'mine now', for: '1h' });
    expect(again.status).toBe(409);
    expect(message(again)).toContain(`is held by ${OPS} (lockboard hold until`);
    expect((await seen(TF))!.version).toBe(lock.version);
    expect(await trail(TF)).toEqual([['hold-placed', OPS, 'INC-123 state surgery']]);
  });

  it('holds in the chosen format where the store offers several (Lockboard’s own lock, its purpose the reason)', async () => {
    const r = await hold(TEAM, { name: 'ci/deploy', reason: 'freeze deploys', for: '30m', format: 'lockboard' });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ format: 'lockboard', endsItself: true });
    expect((await seen('ci/deploy'))!.purpose).toBe('freeze deploys');
    expect((await unhold(TEAM, { name: 'ci/deploy', version: r.json.version })).status).toBe(200);
  });
});

describe('POST /api/locks/unhold', () => {
  it('refuses a hold replaced since it was seen (409, nothing deleted), then ends exactly the hold, then 410', async () => {
    const before = (await seen(TF))!;
    const wrong = await unhold(OPS, { name: TF, version: `${before.version}0` });
    expect(wrong.status).toBe(409);
    expect(message(wrong)).toContain('the hold was replaced');
    expect(message(wrong)).toContain('Nothing was deleted');
    expect((await seen(TF))!.version).toBe(before.version);

    const end = await unhold(OPS, { name: TF, version: before.version });
    expect(end.status, end.text).toBe(200);
    expect(end.json).toEqual({ outcome: 'ended' });
    expect(await seen(TF)).toBeNull();
    expect(await trail(TF)).toEqual([
      ['hold-placed', OPS, 'INC-123 state surgery'],
      ['hold-ended', OPS, 'INC-123 state surgery'],
    ]);
    expect((await unhold(OPS, { name: TF })).status).toBe(410);
  });

  it('refuses to end what is no hold (a contender’s own lock): 409, nothing deleted', async () => {
    const lock = await acquireLock({ storage: t.storage, bucket: t.bucket, name: 'prod/job', ttlMs: 60_000 });
    try {
      const r = await unhold(OPS, { name: 'prod/job' });
      expect(r.status).toBe(409);
      expect(message(r)).toContain('is no hold');
      expect((await seen('prod/job'))!.version).toBe(`${lock.generation}.${lock.currentMetageneration}`);
      const held = await hold(OPS, { name: 'prod/job', reason: 'take it', for: '1h', format: 'lockboard' });
      expect(held.status).toBe(409);
    } finally {
      await lock.release();
    }
  });
});
