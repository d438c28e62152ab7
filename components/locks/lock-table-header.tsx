'use client';
// The locks table's header: sortable column headers on a wide screen, a sort picker above the cards on a phone.

export type SortKey = 'name' | 'source' | 'owner' | 'health' | 'held' | 'refresh' | 'expires' | 'generation' | 'format';

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'name', label: 'Lock' },
  { key: 'source', label: 'Source' },
  { key: 'owner', label: 'Owner' },
  { key: 'health', label: 'Health' },
  { key: 'held', label: 'Held for' },
  { key: 'refresh', label: 'Last change' },
  { key: 'expires', label: 'Expires in' },
  { key: 'generation', label: 'Version' },
  { key: 'format', label: 'Format' },
];
// Every column and the Release button fit from 1024 px (one source: 62rem) and 1280 px (all sources: 70.5rem);
// below those widths the table is shown as cards (lock-table.tsx)
const GRID_ONE =
  'grid grid-cols-[minmax(9rem,2fr)_minmax(8rem,2fr)_6.5rem_4.5rem_5.5rem_6rem_minmax(6rem,1fr)_6rem_5rem] gap-2 px-3';
const GRID_ALL =
  'grid grid-cols-[minmax(9rem,2fr)_minmax(8rem,1.2fr)_minmax(8rem,2fr)_6.5rem_4.5rem_5.5rem_6rem_minmax(6rem,1fr)_6rem_5rem] gap-2 px-3';
/** The grid of the wide table; with several sources shown, a Source column tells two locks of one name apart. */
export const gridOf = (withSource: boolean) => (withSource ? GRID_ALL : GRID_ONE);
/** The columns shown: Source only when several sources are listed together. */
const columnsOf = (withSource: boolean) => COLUMNS.filter((c) => withSource || c.key !== 'source');

type Sort = { key: SortKey; dir: 'asc' | 'desc' };
type HeaderProps = { withSource: boolean; sort: Sort; onSort: (key: SortKey) => void };

export function LockTableHeader({ narrow, ...header }: HeaderProps & { narrow: boolean }) {
  return narrow ? <SortPicker {...header} /> : <ColumnHeaders {...header} />;
}

/** Above the cards: a column to sort by and the direction. */
function SortPicker({ withSource, sort, onSort }: HeaderProps) {
  return (
    <div
      role="row"
      className="flex items-center gap-2 border-b border-zinc-200 bg-zinc-50 px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
    >
      <label role="columnheader" className="flex items-center gap-2">
        Sort by
        <select
          value={sort.key}
          onChange={(e) => onSort(e.target.value as SortKey)}
          className="rounded-md border border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-600"
        >
          {columnsOf(withSource).map((c) => (
            <option key={c.key} value={c.key}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        onClick={() => onSort(sort.key)}
        className="rounded-md px-2 py-1 ring-1 ring-inset ring-zinc-300 dark:ring-zinc-700"
        aria-label={`Sort ${sort.dir === 'asc' ? 'descending' : 'ascending'}`}
      >
        {sort.dir === 'asc' ? '▲' : '▼'}
      </button>
    </div>
  );
}

/** Above the wide grid: each column's header sorts by it (again: the other way). */
function ColumnHeaders({ withSource, sort, onSort }: HeaderProps) {
  return (
    <div
      role="row"
      className={`${gridOf(withSource)} border-b border-zinc-200 bg-zinc-50 py-2 text-left text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300`}
    >
      {columnsOf(withSource).map((c) => (
        <div
          role="columnheader"
          key={c.key}
          aria-sort={sort.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
        >
          <button type="button" onClick={() => onSort(c.key)} className="uppercase hover:underline">
            {c.label}
            {sort.key === c.key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
          </button>
        </div>
      ))}
      <div role="columnheader">
        <span className="sr-only">Actions</span>
      </div>
    </div>
  );
}
