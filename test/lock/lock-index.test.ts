// The console's index of one source (lib/server/index): counts kept as rows change, health that moves with time alone
// moved by the sweep (not by judging every row), passes that remove what they did not see, and windows by cursor.
import { describe, expect, it } from 'vitest';
import { LockIndex } from '@/lib/lock/query/lock-index';
import { runQuery } from '@/lib/lock/query/query';
import { expand } from '@/lib/lock/query/row';
import type { LockView } from '@/lib/lock/store';

const T0 = Date.parse('2026-11-25T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const view = (name: string, o: Partial<LockView> = {}): LockView =>
  ({
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
    health: 'healthy',
    heldMs: 0,
    metadata: { big: 'x'.repeat(100) },
    details: [['Token', 'abc']],
    releasable: true,
    releaseRule: 'delete',
    releaseNote: '',
    size: 1,
    version: `v-${name}`,
    versionLabel: 'hash',
    terms: { storeLabel: 'Redis' } as LockView['terms'],
    ...o,
  }) as LockView;

describe('the lock index', () => {
  it('keeps its heap of transitions bounded while TTLs are extended, and still expires each lock on time', () => {
    const ix = new LockIndex();
    for (let round = 1; round <= 60; round++)
      for (let i = 0; i < 100; i++)
        ix.upsert(view(`k${i}`, { expiresAt: iso(T0 + 10_000 * round), afterExpiry: 'expired' }), T0);
    expect(ix.transitions).toBeLessThanOrEqual(2 * 100 + 1_024 + 1);
    expect(ix.sweep(T0 + 10_000 * 59)).toEqual([]); // every old expiry passed: nothing moves
    expect(ix.sweep(T0 + 10_000 * 60).length).toBe(100);
    expect(ix.counts.expired).toBe(100);
  });

  it('pushes a new version, health, read state or an expiry moved by over a second; not an expiry that wobbles', () => {
    const ix = new LockIndex();
    const at = (ms: number, o: Partial<LockView> = {}) => view('l', { expiresAt: iso(T0 + ms), ...o });
    expect(ix.upsert(at(60_000), T0)).toBeDefined(); // new
    expect(ix.upsert(at(60_400), T0)).toBeUndefined(); // a TTL read a few hundred ms apart
    expect(ix.upsert(at(90_000), T0)).toBeDefined(); // refreshed, same version
    expect(ix.upsert(at(90_000, { version: 'v2' }), T0)).toBeDefined();
    expect(ix.upsert(at(90_000, { version: 'v2', pending: true }), T0)).toBeDefined();
    expect(ix.upsert(at(90_000, { version: 'v2', pending: true }), T0)).toBeUndefined();
    expect(ix.upsert(view('l', { version: 'v2', pending: true }), T0)).toBeDefined(); // no expiry now
  });

  it('keeps a verdict sentence current for reads, but pushes it only when its words move, not its figures', () => {
    const ix = new LockIndex();
    const judged = (sentence: string, verdict = 'alive') =>
      view('ci/build', { verdict, sentence, evidence: [] } as Partial<LockView>);
    expect(ix.upsert(judged('Alive: its holder wrote it 1 s ago.'), T0)).toBeDefined();
    // an age that moved: nothing to push (it would push every judged row on every pass), but a read sees 3 s
    expect(ix.upsert(judged('Alive: its holder wrote it 3 s ago.'), T0)).toBeUndefined();
    expect(ix.rows.get('ci/build')!.verdict!.sentence).toBe('Alive: its holder wrote it 3 s ago.');
    expect(ix.verdicts.alive).toBe(1);
    // what it says moved: a change
    const words = ix.upsert(judged('Alive: lease 1f was kept alive between two reads.'), T0);
    expect(words?.after?.verdict?.sentence).toBe('Alive: lease 1f was kept alive between two reads.');
    const gone = ix.upsert(judged('Gone: lease 1f was kept alive between two reads.', 'gone'), T0);
    expect(gone?.after?.verdict?.verdict).toBe('gone');
    expect([ix.verdicts.alive, ix.verdicts.gone]).toEqual([0, 1]);
  });

  it('finds a lock by its pair key, following a new holder (another key) and a removal', () => {
    const ix = new LockIndex();
    ix.upsert(view('tf/prod', { pairKey: 'terraform:tf/prod#id-1' }), T0);
    ix.upsert(view('tf/dev'), T0);
    expect(ix.pairedWith('terraform:tf/prod#id-1')).toEqual(['tf/prod']);
    ix.upsert(view('tf/prod', { pairKey: 'terraform:tf/prod#id-2', version: 'v2' }), T0);
    expect(ix.pairedWith('terraform:tf/prod#id-1')).toEqual([]);
    expect(ix.pairedWith('terraform:tf/prod#id-2')).toEqual(['tf/prod']);
    ix.remove('tf/prod');
    expect(ix.pairedWith('terraform:tf/prod#id-2')).toEqual([]);
  });

  it('keeps counts by health as rows come and go, and drops what a whole pass did not see', () => {
    const ix = new LockIndex();
    ix.beginPass();
    ix.upsert(view('a'), T0);
    ix.upsert(view('b', { health: 'unknown' }), T0);
    expect(ix.counts.healthy).toBe(1);
    expect(ix.counts.unknown).toBe(1);
    expect(ix.upsert(view('a'), T0)).toBeUndefined(); // unchanged: no event
    ix.beginPass();
    ix.upsert(view('b', { health: 'unknown' }), T0);
    expect(ix.endPass().map((c) => c.before?.name)).toEqual(['a']);
    expect(ix.counts.healthy).toBe(0);
    expect(ix.size).toBe(1);
  });

  it('keeps no details or metadata in memory: the lock page reads them again', () => {
    const ix = new LockIndex();
    ix.upsert(view('a'), T0);
    const row = expand(ix.rows.get('a')!);
    expect(row.details).toEqual([]);
    expect(row.metadata).toEqual({});
    expect(row.version).toBe('v-a');
  });

  it('moves a row to expired when its TTL runs out, with no store event, only that row', () => {
    const ix = new LockIndex();
    ix.upsert(view('soon', { expiresAt: iso(T0 + 5_000), afterExpiry: 'expired' }), T0);
    ix.upsert(view('later', { expiresAt: iso(T0 + 60_000), afterExpiry: 'expired' }), T0);
    expect(ix.sweep(T0 + 1_000)).toEqual([]);
    const moved = ix.sweep(T0 + 6_000);
    expect(moved.map((c) => [c.after!.name, c.after!.health])).toEqual([['soon', 'expired']]);
    expect(ix.counts.expired).toBe(1);
    expect(ix.counts.healthy).toBe(1);
  });

  it('a row refreshed since it was scheduled is not moved by its old expiry', () => {
    const ix = new LockIndex();
    ix.upsert(view('a', { expiresAt: iso(T0 + 5_000), afterExpiry: 'expired' }), T0);
    ix.upsert(view('a', { version: 'v2', expiresAt: iso(T0 + 50_000), afterExpiry: 'expired' }), T0 + 4_000);
    expect(ix.sweep(T0 + 6_000)).toEqual([]);
    expect(ix.counts.healthy).toBe(1);
  });

  it('pages a sorted, filtered window by cursor over several sources, each row once', () => {
    const a = new LockIndex();
    const b = new LockIndex();
    for (let i = 0; i < 250; i++) a.upsert(view(`job-${String(i).padStart(3, '0')}`), T0);
    for (let i = 0; i < 250; i++) b.upsert(view(`job-${String(i).padStart(3, '0')}`, { identity: 'ci' }), T0);
    const sources = [
      { id: 'a', rows: a.rows.values(), counts: a.counts, size: a.size },
      { id: 'b', rows: b.rows.values(), counts: b.counts, size: b.size },
    ];
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const fresh = sources.map((s, i) => ({ ...s, rows: [a, b][i]!.rows.values() }));
      const w = runQuery(fresh, { sort: 'name', order: 'desc', limit: 64, ...(cursor ? { cursor } : {}) });
      expect(w.total).toBe(500);
      expect(w.counts.healthy).toBe(500);
      seen.push(...w.rows.map((r) => `${r.source}/${r.row.name}`));
      cursor = w.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(500);
    expect(new Set(seen).size).toBe(500);
    expect(seen[0]).toBe('b/job-249');
    const ci = runQuery(
      sources.map((s, i) => ({ ...s, rows: [a, b][i]!.rows.values() })),
      { q: 'CI', sort: 'name', order: 'asc', limit: 10 },
    );
    expect(ci.matched).toBe(250);
    expect(ci.rows.every((r) => r.source === 'b')).toBe(true);
  });
});
