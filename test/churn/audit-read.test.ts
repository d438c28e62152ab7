// Reading audit events of a window against the emulator: metadata only, one list call per 1 000 events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditObjectName, listAuditEvents } from '@/lib/lock';
import { startTestEmulator, type Target } from '../helpers/gcs';

let t: Target;
const prefix = '.lockboard/audit/';
const base = Date.UTC(2026, 2, 3, 10, 0, 0);

// the store's clock at each write: an event's time is its object's creation (a name alone cannot back-date it)
let now = base;

beforeAll(async () => {
  t = await startTestEmulator({ clock: () => now });
  const b = t.storage.bucket(t.bucket);
  const put = (ms: number, metadata: Record<string, string>) =>
    (now = ms) &&
    b
      .file(auditObjectName(prefix, ms))
      .save('{}', { resumable: false, metadata: { metadata }, preconditionOpts: { ifGenerationMatch: 0 } });
  await put(base - 60_000, { event: 'acquired', lock: 'locks/a', generation: '1' });
  for (let i = 0; i < 1500; i++)
    await put(base + i * 1000, {
      event: i % 2 ? 'released' : 'acquired',
      lock: i % 3 ? 'locks/a' : 'locks/b',
      held_ms: '5',
    });
  await put(base + 3 * 3600_000, { event: 'acquired', lock: 'locks/a' });
});
afterAll(async () => {
  await t.close();
});

describe('listAuditEvents', () => {
  it('reads only the window, from metadata, with one list call per 1 000 events', async () => {
    t.emulator!.requests.clear();
    const { events, listCalls } = await listAuditEvents({
      storage: t.storage,
      bucket: t.bucket,
      auditPrefix: prefix,
      from: new Date(base),
      to: new Date(base + 3600_000),
    });
    expect(events).toHaveLength(1500);
    expect(listCalls).toBe(2);
    expect(t.emulator!.requests.entries.every((e) => e.method === 'GET' && e.path.endsWith('/o'))).toBe(true);
    expect(events[0]).toMatchObject({
      event: 'acquired',
      lock: 'locks/b',
      held_ms: 5,
      at: new Date(base).toISOString(),
    });
  });

  it('filters by lock and by event kind', async () => {
    const { events } = await listAuditEvents({
      storage: t.storage,
      bucket: t.bucket,
      auditPrefix: prefix,
      from: new Date(base),
      to: new Date(base + 3600_000),
      lock: 'locks/b',
      events: ['acquired'],
    });
    expect(events.length).toBe(250);
    expect(events.every((e) => e.lock === 'locks/b' && e.event === 'acquired')).toBe(true);
  });
});
