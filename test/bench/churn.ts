// Reading a 24 h window of 10 000 and 100 000 audit events and summarising it: list calls, time, memory.
import { Storage } from '@google-cloud/storage';
import { startEmulator } from '@/lib/emulator';
import { summarise } from '@/lib/console/churn/summary';
import { auditObjectName, listAuditEvents } from '@/lib/lock';
import { printTable, round, writeJson } from './report';

const KINDS = ['acquired', 'released', 'acquired', 'released', 'took-over', 'lost'];

export async function benchChurn() {
  const emulator = await startEmulator({ buckets: ['bench'] });
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'bench' });
  const rows = [];
  const to = Date.now();
  const from = to - 86_400_000;
  for (const count of [10_000, 100_000]) {
    const prefix = `audit-${count}/`;
    for (let i = 0; i < count; i++) {
      const ms = from + Math.floor((i / count) * 86_400_000);
      emulator.store.insertObject(
        'bench',
        auditObjectName(prefix, ms),
        Buffer.from('{}'),
        {
          metadata: {
            event: KINDS[i % KINDS.length]!,
            lock: `locks/job-${i % 200}`,
            identity: `w-${i % 30}`,
            generation: String(i),
            held_ms: String((i * 37) % 600_000),
          },
        },
        {},
        ms,
      );
    }
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const start = performance.now();
    const { events, listCalls } = await listAuditEvents({
      storage,
      bucket: 'bench',
      auditPrefix: prefix,
      from: new Date(from),
      to: new Date(to),
    });
    const listMs = performance.now() - start;
    const s2 = performance.now();
    const summary = summarise(events, new Date(from), new Date(to));
    const summaryMs = performance.now() - s2;
    rows.push({
      events: events.length,
      'list calls': listCalls,
      'list ms': round(listMs, 0),
      'summary ms': round(summaryMs, 1),
      'heap delta MB': round((process.memoryUsage().heapUsed - heapBefore) / 1e6, 1),
      hours: summary.perHour.length,
    });
  }
  printTable('Churn window: listAuditEvents + summarise for 24 h', rows);
  await emulator.close();
  writeJson('churn', rows);
  return rows;
}
