// The signs of GCS/S3 objects, DynamoDB items and etcd leases written with marks (lib/lock/verdict/figures.ts): each
// view says the words it said before (figures of the read, minutes from two on), the index keeps one verdict for
// locks read alike whatever their times, a row's sentence moves with the time it is read at, the wait that settles
// it runs to the lock's own expiry, and a window's row carries the marked sentence the browser renders on each tick.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LockIndex } from '@/lib/lock/query/lock-index';
import { expand } from '@/lib/lock/query/row';
import type { LockView } from '@/lib/lock/store';
import { inspectView } from '@/lib/lock/objects/inspect';
import { dynamoSigns } from '@/lib/lock/stores/dynamodb/signs';
import type { DynamoReading } from '@/lib/lock/stores/dynamodb/formats';
import { minutes, sentenceAt } from '@/lib/lock/verdict/figures';
import { withVerdict } from '@/lib/lock/verdict/verdict';

const T0 = Date.parse('2026-11-29T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** A Lockboard lock object (TTL `ttl`, refreshed every `refresh`) created at `created`, written at `updated`. */
const object = (name: string, created: number, updated: number, ttl: number, refresh?: number): LockView =>
  withVerdict({
    ...inspectView(
      {
        name,
        metadata: {
          format: 'lockboard/1',
          ttl_ms: String(ttl),
          identity: 'ci@runner',
          ...(refresh ? { refresh_ms: String(refresh) } : {}),
        },
        size: 0,
        createdMs: created,
        updatedMs: updated,
        temporaryHold: false,
      },
      { bucket: 'b', generation: '1', metageneration: '1' },
      T0,
    ),
    source: 'gs://b/',
    terms: { storeLabel: 'Cloud Storage' } as LockView['terms'],
    version: `v-${name}`,
    versionLabel: 'generation 1',
  } as LockView);

afterEach(() => vi.useRealTimers());

describe('object signs written with marks', () => {
  it('say the words of the read, in seconds and in minutes from two minutes on', () => {
    const fresh = object('locks/a', T0 - 40_000, T0 - 3_000, 60_000, 10_000);
    expect(fresh.sentence).toBe('Alive: its holder wrote it 3 s ago (it refreshes every 10 s).');
    expect(fresh.evidence![0]!.fact).toBe(
      `updated ${iso(T0 - 3_000)}, 37 s after its creation, refresh every 10 s, stale in 57 s`,
    );
    const late = object('locks/b', T0 - 600_000, T0 - 300_000, 3_600_000, 60_000);
    expect(late.sentence).toBe(
      'Unknown: its refresh is overdue (last 5 min ago, every 60 s); by Lockboard lock’s rule it expires in 55 min unless it refreshes.',
    );
    expect(late.settleMs).toBe(3_300_000);
    const stale = object('locks/c', T0 - 900_000, T0 - 900_000, 60_000);
    expect(stale.sentence).toMatch(/^Unknown: its last write was 15 min ago, 14 min past Lockboard lock’s own expiry/);
    expect(stale.evidence![0]!.fact).toBe(`updated ${iso(T0 - 900_000)}, stale 14 min ago`);
    expect(JSON.stringify([fresh, late, stale])).not.toMatch(/\\u000[23]/);
    expect([minutes(119_000), minutes(120_000), minutes(150_000)]).toEqual(['119 s', '2 min', '3 min']);
  });

  it('share one verdict in the index across objects written at other times, each row rendering its own figures', () => {
    vi.useFakeTimers({ now: T0 });
    const ix = new LockIndex();
    ix.upsert(object('locks/a', T0 - 3_000, T0 - 3_000, 60_000), T0);
    ix.upsert(object('locks/b', T0 - 20_000, T0 - 20_000, 90_000), T0);
    const [a, b] = [ix.rows.get('locks/a')!, ix.rows.get('locks/b')!];
    expect(a.judged).toBe(b.judged);
    expect(a.verdict!.settleMs).toBe(57_000);
    expect(b.verdict!.settleMs).toBe(70_000);
    vi.setSystemTime(T0 + 10_000);
    expect(a.verdict!.sentence).toMatch(/^Unknown: taken 13 s ago and not refreshed since; .* \(in 47 s\)/);
    expect(b.verdict!.sentence).toMatch(/^Unknown: taken 30 s ago and not refreshed since; .* \(in 60 s\)/);
    // the evidence is as read, at the read's time
    expect(b.verdict!.evidence[0]!.fact).toBe(`updated ${iso(T0 - 20_000)}, stale in 70 s`);
  });

  it("give a window's row the marked sentence, which the page renders from the row's times at each tick", () => {
    const ix = new LockIndex();
    ix.upsert(object('locks/a', T0 - 3_000, T0 - 3_000, 60_000), T0);
    const row = expand(ix.rows.get('locks/a')!, true);
    expect(row.sentenceMarks).toMatch(/\u0002/);
    expect(sentenceAt(row, T0)).toMatch(/^Unknown: taken 3 s ago .* \(in 57 s\)/);
    expect(sentenceAt(row, T0 + 5_000)).toMatch(/^Unknown: taken 8 s ago .* \(in 52 s\)/);
    // elsewhere (`lockboard ls`) a row has the words only
    expect(expand(ix.rows.get('locks/a')!).sentenceMarks).toBeUndefined();
  });
});

/** A DynamoDB lock-client item (lease `lease`) first seen at `seen`, read at `now`. */
const item = (name: string, seen: number, now: number, lease: number, seenBefore: boolean): LockView => {
  const r = { name, format: 'dynamodb-lock-client', leaseMs: lease, released: false } as unknown as DynamoReading;
  return withVerdict({
    store: 'dynamodb',
    source: 'dynamodb://t',
    bucket: 'dynamodb://t',
    name,
    format: 'dynamodb-lock-client',
    formatLabel: 'lock client',
    generation: '0',
    metageneration: '0',
    createdAt: iso(seen),
    updatedAt: iso(seen),
    expiresAt: iso(seen + lease),
    afterExpiry: 'expired',
    health: 'healthy',
    heldMs: now - seen,
    metadata: {},
    details: [],
    releasable: true,
    releaseRule: 'delete',
    releaseNote: '',
    size: 0,
    version: `v-${name}`,
    versionLabel: 'item',
    terms: { storeLabel: 'DynamoDB' } as LockView['terms'],
    signs: dynamoSigns(r, { unchangedMs: now - seen, renewed: false, seenBefore }, now),
  } as LockView);
};

describe('DynamoDB signs written with marks', () => {
  it('say how long the item has been unchanged and when a read settles it, shared across items', () => {
    const a = item('a', T0 - 4_000, T0, 20_000, true);
    expect(a.sentence).toBe(
      'Unknown: its recordVersionNumber has not changed in 4 s of its 20 s lease; a read after 17 s more settles it.',
    );
    expect(a.settleMs).toBe(17_000);
    expect(a.evidence![0]!.fact).toBe('recordVersionNumber unchanged for 4 s, lease 20 s');
    const ix = new LockIndex();
    ix.upsert(a, T0);
    ix.upsert(item('b', T0 - 9_000, T0, 20_000, true), T0);
    expect(ix.rows.get('a')!.judged).toBe(ix.rows.get('b')!.judged);
    expect(ix.rows.get('b')!.verdict!.settleMs).toBe(12_000);
  });
});
