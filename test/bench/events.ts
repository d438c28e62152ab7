// POST /api/gcs-events (the route handler, in process) fed with the emulator's own notifications: deliveries per
// second one console instance handles, and Cloud Storage requests per delivered notification, for foreign locks
// (create + delete of Terraform locks), Lockboard locks (observed only), and redeliveries (duplicates).
import { Storage } from '@google-cloud/storage';
import { startEmulator } from '@/lib/emulator';
import { call, SECRET } from '../helpers/routes';
import { printTable, round, writeJson } from './report';

const LOCKS = 300;
const TOKEN = 'bench-push-token-0123456789';

export async function benchEvents() {
  const pushes: string[] = [];
  // The emulator pushes to a collector; the bench then replays the collected bodies into the route, timed
  const collector = await import('node:http').then(({ createServer }) =>
    createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        pushes.push(body);
        res.writeHead(204).end();
      });
    }),
  );
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(collector.address() as { port: number }).port}/`;
  const emulator = await startEmulator({ buckets: ['bench'], push: { endpoint } });
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'bench' });
  await storage.bucket('bench').createNotification('projects/bench/topics/t', { payloadFormat: 'JSON_API_V1' });
  for (let i = 0; i < LOCKS; i++) {
    const f = storage.bucket('bench').file(`tf/s${i}/default.tflock`);
    await f.save(JSON.stringify({ ID: String(i), Operation: 'OperationTypeApply', Who: `ci-${i}` }), {
      resumable: false,
    });
    await f.delete();
  }
  for (let i = 0; i < 100 && pushes.length < 2 * LOCKS; i++) await new Promise((r) => setTimeout(r, 50));
  // The route's own audit writes would be notified too: stop notifications, and replay a snapshot
  const [configs] = await storage.bucket('bench').getNotifications();
  await Promise.all(configs.map((c) => c.delete()));
  const collected = [...pushes];
  Object.assign(process.env, {
    LOCKBOARD_BUCKET: 'bench',
    LOCKBOARD_GCS_ENDPOINT: emulator.url,
    LOCKBOARD_PREFIXES: 'tf/',
    LOCKBOARD_PUSH_TOKEN: TOKEN,
    NEXTAUTH_SECRET: SECRET,
  });
  const route = await import('@/app/api/gcs-events/route');
  const rows: Record<string, string | number>[] = [];
  const run = async (label: string, bodies: string[]) => {
    const before = emulator.requests.entries.length;
    const started = performance.now();
    let ok = 0;
    // 8 deliveries in flight, as Pub/Sub pushes concurrently
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++]!;
          const r = await call(route.POST, `/api/gcs-events?token=${TOKEN}`, {
            method: 'POST',
            rawBody: body,
            headers: { 'content-type': 'application/json' },
          });
          if (r.status === 200) ok++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const requests = emulator.requests.entries.slice(before);
    const writes = requests.filter((e) => e.method === 'POST').length;
    rows.push({
      deliveries: label,
      count: bodies.length,
      ok,
      'per second': round(bodies.length / seconds),
      'GCS requests / delivery': round(requests.length / bodies.length, 2),
      'GCS writes / delivery': round(writes / bodies.length, 2),
    });
  };
  await run('first delivery (create + delete)', collected);
  await run('redelivery of the same', collected);
  printTable(
    `POST /api/gcs-events: ${LOCKS} Terraform locks created and deleted (${collected.length} notifications)`,
    rows,
  );
  writeJson('events', rows);
  await emulator.close();
  collector.close();
}

if (process.argv[1]?.endsWith('events.ts')) {
  await benchEvents();
  process.exit(0);
}
