// A verdict's figures of the lock's own expiry written as marks (lib/lock/verdict/figures.ts): the view says the same
// words as before, the index keeps one verdict for every lock read alike, renders a row's sentence with the figures of
// the moment it is read and its evidence as read, and a window's row carries the sentence without the evidence.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LockIndex } from '@/lib/lock/query/lock-index';
import { expand } from '@/lib/lock/query/row';
import { rowView } from '@/lib/lock/query/row-view';
import type { LockView } from '@/lib/lock/store';
import { EXPIRY, LEFT, LEFT_MS } from '@/lib/lock/verdict/figures';
import { signsAt } from '@/lib/lock/verdict/sign';
import { withVerdict } from '@/lib/lock/verdict/verdict';

const T0 = Date.parse('2026-11-29T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** A lock read at `at` expiring `ttl` after T0, its sign written with marks as Redis's are. */
const read = (name: string, ttl: number, at = T0): LockView =>
  withVerdict({
    store: 'redis',
    source: 'redis://h:6379/0',
    bucket: 'redis://h:6379/0',
    name,
    format: 'redis-py',
    formatLabel: 'redis-py Lock',
    generation: '0',
    metageneration: '0',
    createdAt: iso(T0),
    updatedAt: iso(T0),
    expiresAt: iso(T0 + ttl),
    afterExpiry: 'expired',
    health: 'healthy',
    heldMs: 0,
    metadata: {},
    details: [],
    releasable: true,
    releaseRule: 'delete',
    releaseNote: '',
    size: 32,
    version: `v-${name}`,
    versionLabel: 'hash',
    terms: { storeLabel: 'Redis' } as LockView['terms'],
    signs: [
      signsAt(at)(
        'unknown',
        `seen once: its TTL (${LEFT} left) is judged by two reads`,
        `PTTL ${LEFT_MS} ms; expiry ${EXPIRY}`,
        'PTTL',
        30_000,
      ),
    ],
  } as LockView);

afterEach(() => vi.useRealTimers());

describe('figures written as marks', () => {
  it('give a view the words with its figures, and nothing of the marks in its JSON', () => {
    const v = read('lock:1', 90_000);
    expect(v.sentence).toBe('Unknown: seen once: its TTL (90 s left) is judged by two reads.');
    expect(v.evidence).toEqual([{ fact: `PTTL 90000 ms; expiry ${iso(T0 + 90_000)}`, from: 'PTTL', at: iso(T0) }]);
    expect(JSON.stringify(v)).not.toMatch(/\\u000[23]/);
    expect({ ...v }).toEqual(v);
  });

  it('let locks read alike share one verdict in the index, each row rendering its own figures when read', () => {
    vi.useFakeTimers({ now: T0 });
    const ix = new LockIndex();
    ix.beginPass();
    ix.upsert(read('lock:1', 90_000), T0);
    ix.upsert(read('lock:2', 3_600_000), T0);
    const [a, b] = [ix.rows.get('lock:1')!, ix.rows.get('lock:2')!];
    expect(a.judged).toBe(b.judged);
    expect(b.verdict!.sentence).toBe('Unknown: seen once: its TTL (3600 s left) is judged by two reads.');
    vi.setSystemTime(T0 + 30_000);
    // the sentence is of the moment it is read; the evidence is what was read, when it was read
    expect(a.verdict!.sentence).toBe('Unknown: seen once: its TTL (60 s left) is judged by two reads.');
    expect(a.verdict!.evidence[0]!.fact).toBe(`PTTL 90000 ms; expiry ${iso(T0 + 90_000)}`);
    expect(ix.verdicts.unknown).toBe(2);
  });

  it('leave a window row the verdict and its sentence, not its evidence', () => {
    const ix = new LockIndex();
    ix.upsert(read('lock:1', 90_000), T0);
    const row = rowView(expand(ix.rows.get('lock:1')!));
    expect(row.verdict).toBe('unknown');
    expect(row.sentence).toMatch(/^Unknown: seen once/);
    expect(row.evidence).toBeUndefined();
  });

  it('keep a row as it is when a later pass reads the same words: no change pushed, the new read its evidence', () => {
    const ix = new LockIndex();
    ix.upsert(read('lock:1', 90_000), T0);
    const row = ix.rows.get('lock:1')!;
    expect(ix.upsert(read('lock:1', 90_000, T0 + 5_000), T0 + 5_000)).toBeUndefined();
    expect(ix.rows.get('lock:1')).toBe(row);
    expect(row.verdict!.evidence).toEqual([
      { fact: `PTTL 85000 ms; expiry ${iso(T0 + 90_000)}`, from: 'PTTL', at: iso(T0 + 5_000) },
    ]);
    expect(ix.transitions).toBe(1);
  });
});
