// GET /api/locks (the route handler, in process) for 100 … 50 000 locks next to the raw client listing of the same
// objects, and GCS list calls per second with 50 concurrent pollers.
import { Storage } from '@google-cloud/storage';
import { startEmulator } from '@/lib/emulator';
import { call, SECRET } from '../helpers/routes';
import { printTable, quantile, round, writeJson } from './report';

const SIZES = [100, 1_000, 10_000, 50_000];

export async function benchConsole() {
  const emulator = await startEmulator({ buckets: ['bench'] });
  const now = Date.now();
  for (const size of SIZES) {
    for (let i = 0; i < size; i++) {
      emulator.store.insertObject(
        'bench',
        `p${size}/lock-${String(i).padStart(6, '0')}`,
        Buffer.from('{}'),
        {
          contentType: 'application/json',
          metadata: {
            identity: `host-${i % 50}:${1000 + i}:abcd1234`,
            ttl_ms: '300000',
            refresh_ms: '37500',
            expires_at: String(now / 1000 + 300),
            format: 'lockboard/1',
            host: `host-${i % 50}`,
            pid: String(1000 + i),
          },
        },
        {},
        now,
      );
    }
  }
  Object.assign(process.env, {
    LOCKBOARD_BUCKET: 'bench',
    LOCKBOARD_GCS_ENDPOINT: emulator.url,
    LOCKBOARD_PREFIXES: SIZES.map((s) => `p${s}/`).join(','),
    LOCKBOARD_VIEWERS: 'bench@example.com',
    NEXTAUTH_SECRET: SECRET,
  });
  const { GET } = await import('@/app/api/locks/route');
  const { invalidateListings } = await import('@/lib/server/stores');
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'bench' });

  const rows = [];
  for (const size of SIZES) {
    const route: number[] = [];
    const raw: number[] = [];
    const runs = size >= 10_000 ? 3 : 10;
    let listCalls = 0;
    for (let i = 0; i < runs; i++) {
      invalidateListings();
      emulator.requests.clear();
      let s = performance.now();
      const r = await call(GET, `/api/locks?prefix=p${size}/`, { as: 'bench@example.com' });
      route.push(performance.now() - s);
      listCalls = emulator.requests.count();
      if ((r.json.locks as unknown[]).length !== Math.min(size, 10_000))
        throw new Error(`route returned ${(r.json.locks as unknown[]).length} locks`);
      s = performance.now();
      await storage.bucket('bench').getFiles({ prefix: `p${size}/` });
      raw.push(performance.now() - s);
    }
    const routeMs = quantile(route, 0.5);
    const rawMs = quantile(raw, 0.5);
    rows.push({
      locks: size,
      'GET /api/locks ms': round(routeMs),
      'raw client listing ms': round(rawMs),
      ratio: round(routeMs / rawMs, 2),
      'list calls': listCalls,
    });
  }
  printTable('Console listing (route handler in process; the route returns at most 10 000 locks per response)', rows);

  invalidateListings();
  emulator.requests.clear();
  const seconds = 10;
  const end = performance.now() + seconds * 1000;
  let responses = 0;
  await Promise.all(
    Array.from({ length: 50 }, async (_, i) => {
      await new Promise((r) => setTimeout(r, (i * 1000) / 50));
      while (performance.now() < end) {
        await call(GET, '/api/locks?prefix=p1000/', { as: 'bench@example.com' });
        responses++;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }),
  );
  const pollers = {
    pollers: 50,
    seconds,
    responses,
    'GCS list calls': emulator.requests.count(),
    'list calls/s': round(emulator.requests.count() / seconds, 2),
  };
  printTable('50 concurrent pollers, one request per second each, 1 000 locks', [pollers]);
  await emulator.close();
  writeJson('console', { listing: rows, pollers });
  return { rows, pollers };
}

if (process.argv[1]?.endsWith('console.ts')) {
  await benchConsole();
  process.exit(0);
}
