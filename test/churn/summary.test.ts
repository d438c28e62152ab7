import { describe, expect, it } from 'vitest';
import { percentile, summarise } from '@/lib/console/churn/summary';
import { timeline } from '@/lib/console/churn/timeline';
import { CSV_BOM, toCsv } from '@/lib/console/churn/csv';
import type { AuditRecord } from '@/lib/lock';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString();
let n = 0;
const ev = (e: Partial<AuditRecord> & Pick<AuditRecord, 'event' | 'lock' | 'at'>): AuditRecord => ({
  id: String(n++),
  ...e,
});

describe('churn summary', () => {
  it('computes nearest-rank percentiles', () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([5], 95)).toBe(5);
  });

  it('counts events per hour by kind, acquisitions per lock, hold times, takeovers, failures and force-releases', () => {
    const events = [
      ev({ event: 'acquired', lock: 'a', at: at(1), generation: '1' }),
      ev({ event: 'released', lock: 'a', at: at(2), generation: '1', held_ms: 1000, outcome: 'ok' }),
      ev({ event: 'acquired', lock: 'a', at: at(3), generation: '2' }),
      ev({ event: 'released', lock: 'a', at: at(4), generation: '2', held_ms: 3000, outcome: 'error', error: 'boom' }),
      ev({ event: 'took-over', lock: 'b', at: at(70), generation: '3', previous_identity: 'dead', stale_ms: 500 }),
      ev({ event: 'lost', lock: 'b', at: at(75), generation: '3', held_ms: 20_000 }),
      ev({ event: 'force-released', lock: 'c', at: at(80), operator: 'ops', reason: 'stuck' }),
    ];
    const s = summarise(events, new Date(at(0)), new Date(at(120)));
    expect(s.perHour).toHaveLength(2);
    expect(s.perHour[0]!.counts).toMatchObject({ acquired: 2, released: 2, 'took-over': 0 });
    expect(s.perHour[1]!.counts).toMatchObject({ 'took-over': 1, lost: 1, 'force-released': 1 });
    expect(s.topByAcquisitions).toEqual([
      { lock: 'a', acquisitions: 2 },
      { lock: 'b', acquisitions: 1 },
    ]);
    expect(s.topByHeldTime[0]).toEqual({ lock: 'b', heldMs: 20_000 });
    expect(s.holdTime).toEqual({ count: 3, p50: 3000, p95: 20_000, max: 20_000 });
    expect(s.holdTimeBuckets.find((b) => b.label === '1–10 s')!.count).toBe(2);
    expect(s.holdTimeBuckets.find((b) => b.label === '10 s–1 min')!.count).toBe(1);
    expect(s.takeovers.map((e) => e.previous_identity)).toEqual(['dead']);
    expect(s.failures.map((e) => e.event)).toEqual(['lost', 'released']);
    expect(s.forceReleases).toHaveLength(1);
  });

  it('builds a lock timeline: who held it when, and how each tenure ended', () => {
    const events = [
      ev({ event: 'acquired', lock: 'x', at: at(1), generation: '10', identity: 'a' }),
      ev({ event: 'released', lock: 'x', at: at(2), generation: '10', held_ms: 60_000, outcome: 'ok' }),
      ev({ event: 'acquired', lock: 'x', at: at(3), generation: '11', identity: 'b' }),
      ev({ event: 'took-over', lock: 'x', at: at(9), generation: '12', identity: 'c', previous_generation: '11' }),
      ev({ event: 'force-released', lock: 'x', at: at(12), generation: '12' }),
    ];
    expect(timeline(events).map((t) => [t.identity, t.ended])).toEqual([
      ['c', 'force-released'],
      ['b', 'taken over'],
      ['a', 'released'],
    ]);
  });

  it('keeps a holder that took and released a lock within one millisecond one released tenure, in any order read', () => {
    const same = [
      ev({ event: 'released', lock: 'x', at: at(2), generation: '10', held_ms: 0, outcome: 'ok' }),
      ev({ event: 'acquired', lock: 'x', at: at(2), generation: '10', identity: 'a' }),
      ev({ event: 'released', lock: 'x', at: at(3), generation: '11', held_ms: 0, outcome: 'ok' }),
      ev({ event: 'acquired', lock: 'x', at: at(3), generation: '11', identity: 'b' }),
    ];
    for (const events of [same, [...same].reverse()])
      expect(timeline(events, { free: true }).map((t) => [t.identity, t.ended, t.from])).toEqual([
        ['b', 'released', at(3)],
        ['a', 'released', at(2)],
      ]);
  });

  it("shows a force-release of a lock whose start the trail lacks (a foreign holder's lock: #52)", () => {
    // what a release of a Caddy lock writes: the request, then the release, no acquired or observed-created
    const events = [
      ev({ event: 'force-release-requested', lock: 'caddy/x.lock', at: at(1), generation: '7', operator: 'op' }),
      ev({
        event: 'force-released',
        lock: 'caddy/x.lock',
        at: at(2),
        generation: '7',
        identity: 'caddy',
        outcome: 'released',
      }),
      ev({ event: 'force-released', lock: 'caddy/x.lock', at: at(5), outcome: 'released' }), // a store with no generation
      ev({ event: 'force-release-refused', lock: 'caddy/x.lock', at: at(6), generation: '9', outcome: 'changed' }),
    ];
    const tenures = timeline(events, { free: true });
    expect(tenures.map((t) => [t.identity, t.ended, t.from, t.to])).toEqual([
      [undefined, 'force-released', undefined, at(5)],
      ['caddy', 'force-released', undefined, at(2)],
    ]);
  });

  it('exports CSV with quoting and neutralised formulas', () => {
    const csv = toCsv([ev({ event: 'released', lock: 'a,b', at: at(1), error: '=HYPERLINK("x")' })]);
    const [header, row] = csv.trim().split('\n');
    expect(csv.startsWith(`${CSV_BOM}at,source,event,lock,`)).toBe(true);
    expect(header).toMatch(/^at,source,event,lock,/);
    expect(row).toContain('"a,b"');
    expect(row).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('names each event’s source and starts with a BOM so spreadsheets read ✓ and 日本語 as UTF-8', () => {
    const csv = toCsv([{ ...ev({ event: 'released', lock: '日本語✓', at: at(1) }), source: 'dynamodb://tf-locks' }]);
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    expect(Buffer.from(csv, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(csv.trim().split('\n')[1]).toMatch(/^[^,]+,dynamodb:\/\/tf-locks,released,日本語✓,/);
  });

  it('ranks the same name in two sources as two locks, each with its source', () => {
    const a = { ...ev({ event: 'acquired', lock: 'l', at: at(1) }), source: 'dynamodb://a', bucket: 'dynamodb://a' };
    const b = { ...a, id: 'x2', source: 'dynamodb://b', bucket: 'dynamodb://b' };
    const s = summarise([a, a, b], new Date(at(0)), new Date(at(120)));
    expect(s.topByAcquisitions).toEqual([
      { lock: 'l', source: 'dynamodb://a', bucket: 'dynamodb://a', acquisitions: 2 },
      { lock: 'l', source: 'dynamodb://b', bucket: 'dynamodb://b', acquisitions: 1 },
    ]);
  });

  it('neutralises cells that start with TAB or CR, which spreadsheets also evaluate', () => {
    const csv = toCsv([ev({ event: 'released', lock: 'l', at: at(1), error: '\t=1+1', reason: '\r=2+2' })]);
    expect(csv).toContain(`"'\t=1+1"`);
    expect(csv).toContain(`"'\r=2+2"`);
  });
});

describe('observed events (GCS notifications)', () => {
  const t0 = '2026-01-01T10:00:00.000Z';
  const t1 = '2026-01-01T10:05:00.000Z';
  const events = [
    // a Lockboard lock: its own events plus the observed ones (which must not count twice)
    ev({ event: 'acquired', lock: 'locks/a', at: t0, generation: '1', identity: 'job' }),
    ev({ event: 'observed-created', lock: 'locks/a', at: t0, generation: '1', format: 'lockboard' }),
    ev({ event: 'observed-deleted', lock: 'locks/a', at: t1, generation: '1', format: 'lockboard' }),
    ev({ event: 'deleted-outside', lock: 'locks/a', at: t1, generation: '1', format: 'lockboard', identity: 'job' }),
    // a Terraform lock, seen only through notifications
    ev({
      event: 'observed-created',
      lock: 'tf/x.tflock',
      at: t0,
      generation: '7',
      format: 'terraform',
      identity: 'ann',
    }),
    ev({ event: 'observed-deleted', lock: 'tf/x.tflock', at: t1, generation: '7', format: 'terraform' }),
  ];
  it('counts foreign churn, never a Lockboard lock twice, with foreign hold times and deletions outside Lockboard', () => {
    const s = summarise(events, new Date('2026-01-01T10:00:00Z'), new Date('2026-01-01T11:00:00Z'));
    expect(s.topByAcquisitions).toEqual([
      { lock: 'locks/a', acquisitions: 1 },
      { lock: 'tf/x.tflock', acquisitions: 1 },
    ]);
    expect(s.holdTime.count).toBe(1); // the Terraform lock: created → deleted
    expect(s.holdTime.p50).toBe(300_000);
    expect(s.deletedOutside.map((e) => e.lock)).toEqual(['locks/a']);
    expect(s.total).toBe(4);
  });
  it('shows both in a lock’s history: a foreign tenure, and a Lockboard one that ended deleted outside', () => {
    expect(timeline(events.filter((e) => e.lock === 'tf/x.tflock'))).toMatchObject([
      { generation: '7', identity: 'ann', ended: 'released', to: t1 },
    ]);
    expect(timeline(events.filter((e) => e.lock === 'locks/a'))).toMatchObject([
      { generation: '1', identity: 'job', ended: 'deleted outside', to: t1 },
    ]);
  });
});

describe('the churn chart', () => {
  it('draws every charted kind in its own colour (observed and outside deletions included)', async () => {
    const { CHURN_COLORS } = await import('@/components/churn/churn-colors');
    const { EVENT_KINDS } = await import('@/lib/console/churn/summary');
    const charted = EVENT_KINDS.filter((k) => k !== 'force-release-requested');
    const colours = charted.map((k) => CHURN_COLORS[k as keyof typeof CHURN_COLORS]);
    expect(colours.every((c) => /^#[0-9a-f]{6}$/.test(c ?? ''))).toBe(true);
    expect(new Set(colours).size).toBe(charted.length);
    // WCAG 2.1: 4.5:1 for the legend's text on the light page, 3:1 for the bars and swatches on the dark one
    const lum = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
      const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
    };
    const ratio = (a: string, b: string) => {
      const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
      return (hi! + 0.05) / (lo! + 0.05);
    };
    for (const c of colours) {
      expect(ratio(c!, '#ffffff'), c).toBeGreaterThanOrEqual(4.5);
      expect(ratio(c!, '#18181b'), c).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('the churn window in the address', () => {
  it('keeps a custom window and a range across a reload, and falls back to 24h for anything malformed', async () => {
    const { churnWindowOf, churnWindowQuery } = await import('@/lib/console/churn/window');
    const params = (q: string) => new URLSearchParams(q);
    const custom = { range: 'custom' as const, from: '2026-11-01T10:00:00.000Z', to: '2026-11-02T10:00:00.000Z' };
    expect(churnWindowOf(params(churnWindowQuery(custom)))).toEqual(custom);
    expect(churnWindowOf(params(churnWindowQuery({ range: '7d' })))).toEqual({ range: '7d' });
    expect(churnWindowQuery({ range: '24h' })).toBe('');
    expect(churnWindowOf(params('from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z'))).toEqual({ range: '24h' });
    expect(churnWindowOf(params('from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z'))).toEqual({ range: '24h' });
    expect(churnWindowOf(params('range=1y'))).toEqual({ range: '24h' });
  });
});

describe('the holders of a lock that is free now', () => {
  it('never shows a tenure as held when nothing holds the lock (its end was not recorded)', () => {
    const events = [
      ev({ event: 'acquired', lock: 'k', at: at(1), generation: '1', identity: 'a' }),
      ev({ event: 'acquired', lock: 'k', at: at(5), generation: '2', identity: 'b' }),
    ];
    expect(timeline(events).map((t) => t.ended)).toEqual(['held', 'ended, not recorded']);
    expect(timeline(events, { free: true }).map((t) => t.ended)).toEqual([
      'ended, not recorded',
      'ended, not recorded',
    ]);
  });

  it('shows one holder at a time: an older generation never held beside a newer one, read free or not', () => {
    const events = [
      ev({ event: 'acquired', lock: 'k', at: at(1), generation: '1', identity: 'a' }),
      ev({ event: 'observed-created', lock: 'k', at: at(3), generation: '2', identity: 'b' }),
      ev({ event: 'acquired', lock: 'k', at: at(5), generation: '3', identity: 'c' }),
    ];
    for (const free of [false, true, false]) {
      const tenures = timeline(events, { free });
      expect(tenures.filter((t) => t.ended === 'held').length).toBeLessThanOrEqual(1);
      expect(tenures.slice(1).map((t) => t.ended)).toEqual(['ended, not recorded', 'ended, not recorded']);
    }
  });
});

describe('a generation’s end on the lock’s history and on the churn page', () => {
  const released = ev({ event: 'released', lock: 'k', at: at(4), generation: '7', held_ms: 1000, outcome: 'ok' });
  const outside = ev({ event: 'deleted-outside', lock: 'k', at: at(3), generation: '7', identity: 'a' });
  const acquired = ev({ event: 'acquired', lock: 'k', at: at(1), generation: '7', identity: 'a' });
  const churnSays = (events: AuditRecord[]) =>
    summarise(events, new Date(at(0)), new Date(at(30))).deletedOutside.some((e) => e.generation === '7')
      ? 'deleted outside'
      : 'released';

  it('agree that a generation Lockboard released was not deleted outside, in any order read', () => {
    for (const events of [
      [acquired, outside, released],
      [acquired, released, { ...outside, at: at(6) }],
    ]) {
      expect(timeline(events, { free: true })[0]!.ended).toBe('released');
      expect(churnSays(events)).toBe('released');
    }
  });

  it('agree that a generation deleted with no Lockboard release was deleted outside', () => {
    const unconfirmed = { ...released, delete_confirmed: 'false' as const };
    for (const events of [
      [acquired, outside],
      [acquired, unconfirmed, { ...outside, at: at(6) }],
    ]) {
      expect(timeline(events, { free: true })[0]!.ended).toBe('deleted outside');
      expect(churnSays(events)).toBe('deleted outside');
    }
  });
});
