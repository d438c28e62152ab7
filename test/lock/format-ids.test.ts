// Formats are declared by their stores (each folder's lock-formats.ts; the tool formats several stores read, once, in
// lib/lock/shared-formats.ts): every id belongs to exactly one declaration, a store's own ids to that store alone, and
// an id from before ids were unique still filters in a saved URL (`?format=advisory` finds MySQL's named locks too).
import { describe, expect, it } from 'vitest';
import { FORMATS } from '@/lib/lock/objects/formats';
import { LockIndex } from '@/lib/lock/query/lock-index';
import { runQuery } from '@/lib/lock/query/query';
import { OBJECT_FORMATS, TOOL_FORMATS } from '@/lib/lock/shared-formats';
import type { LockView } from '@/lib/lock/store';
import { FORMAT_DECLARATIONS, STORES } from '@/lib/lock/stores';
import { lockQueryOf } from '@/lib/server/lock-query';

const SHARED = new Set<object>([...TOOL_FORMATS, ...OBJECT_FORMATS]);

describe('format ids', () => {
  it('each belongs to exactly one declaration: a store’s own, or one shared tool format', () => {
    const ids = FORMAT_DECLARATIONS.map((f) => f.id);
    expect(ids.length).toBeGreaterThan(50);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    for (const f of FORMAT_DECLARATIONS.filter((d) => !SHARED.has(d))) {
      const owners = STORES.filter((s) => s.formats.includes(f));
      expect(
        owners.map((s) => s.kind),
        f.id,
      ).toHaveLength(1);
    }
    for (const f of FORMAT_DECLARATIONS) expect(f.label && f.words, f.id).toBeTruthy();
  });

  it('names no format an object store reads that is not declared, and with the same label', () => {
    const objectStores = STORES.filter((s) => s.kind === 'gcs' || s.kind === 's3');
    for (const reader of FORMATS)
      for (const store of objectStores)
        expect(store.formats.find((f) => f.id === reader.id)?.label, `${store.kind} ${reader.id}`).toBe(reader.label);
  });

  it('renamed the borrowed ids: a MySQL named lock, a Quartz row and an Azure lease have their own', () => {
    const idsOf = (kind: string) => STORES.find((s) => s.kind === kind)!.formats.map((f) => f.id);
    expect(idsOf('mysql')).toEqual(expect.arrayContaining(['mysql-named-lock', 'quartz']));
    expect(idsOf('mysql')).not.toContain('advisory');
    expect(idsOf('mysql')).not.toContain('plain');
    expect(idsOf('azure')).toContain('azure-lease');
    expect(idsOf('azure')).not.toContain('lease');
  });
});

describe('an old id in a saved filter', () => {
  // what the index reads of a view: its name, store, format, health and version (and the store's words, none here)
  const view = (name: string, store: string, format: string) =>
    ({
      name,
      store,
      format,
      version: name,
      health: 'healthy',
      details: [],
      metadata: {},
      terms: {},
    }) as unknown as LockView;

  const names = (raw: Record<string, string>) => {
    const ix = new LockIndex();
    const at = Date.parse('2026-11-25T10:00:00Z');
    for (const v of [
      view('pg-advisory', 'postgres', 'advisory'),
      view('my-named', 'mysql', 'mysql-named-lock'),
      view('quartz-row', 'mysql', 'quartz'),
      view('object', 'gcs', 'plain'),
      view('blob', 'azure', 'azure-lease'),
      view('k8s', 'kubernetes', 'lease'),
    ])
      ix.upsert(v, at);
    const { query } = lockQueryOf(raw);
    return runQuery([{ id: 'all', rows: ix.rows.values(), counts: ix.counts, size: ix.size }], query)
      .rows.map((r) => r.row.name)
      .sort();
  };

  it('matches what it meant: the format that kept the id and the ones that had it', () => {
    expect(names({ format: 'advisory' })).toEqual(['my-named', 'pg-advisory']);
    expect(names({ format: 'plain' })).toEqual(['object', 'quartz-row']);
    expect(names({ format: 'lease' })).toEqual(['blob', 'k8s']);
  });

  it('a new id matches its format alone', () => {
    expect(names({ format: 'mysql-named-lock' })).toEqual(['my-named']);
    expect(names({ format: 'azure-lease' })).toEqual(['blob']);
  });
});
