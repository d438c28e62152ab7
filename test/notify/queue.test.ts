// The delivery queue's bound: when full, the oldest waiting delivery is dropped and reported (counted), never kept.
import { describe, expect, it } from 'vitest';
import type { NotifyEvent } from '@/lib/server/notify/event';
import { DeliveryQueue, type DeliveryJob } from '@/lib/server/notify/queue';

const event = (id: string) => ({ id, event: 'force-released' }) as NotifyEvent;

describe('the delivery queue', () => {
  it('drops the oldest waiting delivery when full, and keeps the newest', async () => {
    const reports: [string, string][] = [];
    const sent: string[] = [];
    let release: () => void = () => undefined;
    const blocked = new Promise<void>((ok) => (release = ok));
    const q = new DeliveryQueue({
      send: async (job: DeliveryJob) => {
        sent.push(job.event.id);
        await blocked;
        return { status: 200 };
      },
      report: (job, state) => reports.push([job.event.id, state]),
      max: 2,
      concurrency: 1,
    });
    for (const id of ['a', 'b', 'c', 'd']) q.push('hook', event(id));
    expect(reports.filter(([, s]) => s === 'dropped')).toEqual([['b', 'dropped']]);
    expect(q.size).toBe(3); // a in flight, c and d waiting
    release();
    await new Promise((ok) => setTimeout(ok, 50));
    expect(sent).toEqual(['a', 'c', 'd']);
    expect(reports.filter(([, s]) => s === 'delivered').map(([id]) => id)).toEqual(['a', 'c', 'd']);
    q.stop();
  });
});
