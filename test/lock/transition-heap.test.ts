// The index's heap of time-driven health changes (lib/lock/query/heap.ts): rows come out in time order, only once
// their time has passed, and `retain` keeps exactly the entries asked for, still in order.
import { describe, expect, it } from 'vitest';
import { TransitionHeap } from '@/lib/lock/query/heap';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `lock:${i}`, at: (i * 7919) % 10_007 }));

describe('TransitionHeap', () => {
  it('pops every row whose time has passed, earliest first, and no other', () => {
    const heap = new TransitionHeap<{ name: string; at: number }>();
    for (const r of rows(5_000)) heap.push(r.at, r);
    const due = heap.popDue(4_999);
    expect(due.map((r) => r.at)).toEqual(
      rows(5_000)
        .map((r) => r.at)
        .filter((at) => at <= 4_999)
        .sort((a, b) => a - b),
    );
    expect(heap.size).toBe(5_000 - due.length);
    const rest = heap.popDue(Infinity).map((r) => r.at);
    expect(rest).toEqual([...rest].sort((a, b) => a - b));
    expect(rest[0]).toBeGreaterThan(4_999);
    expect(heap.size).toBe(0);
  });

  it('retains only the entries asked for, and pops them in order afterwards', () => {
    const heap = new TransitionHeap<{ name: string; at: number }>();
    for (const r of rows(1_000)) heap.push(r.at, r);
    heap.retain((r) => Number(r.name.slice(5)) % 3 === 0);
    const kept = heap.popDue(Infinity);
    expect(kept).toHaveLength(334);
    expect(kept.every((r) => Number(r.name.slice(5)) % 3 === 0)).toBe(true);
    expect(kept.map((r) => r.at)).toEqual(kept.map((r) => r.at).sort((a, b) => a - b));
  });
});
