'use client';

import type { LockInfo } from '@/lib/lock/types';
import { LockCard, LockRow } from './lock-row';
import { NameLink, ReleaseButton } from './lock-row-links';
import { LockTableHeader, type SortKey } from './lock-table-header';
import { ROW_HEIGHT, useLockRows } from './use-lock-rows';
import { useNarrow } from '../ui/use-narrow';

export type { SortKey } from './lock-table-header';

interface Props {
  locks: LockInfo[];
  /** Several sources listed together: each row says which bucket, database or table it is in. */
  withSource?: boolean;
  serverNow: number;
  sort: { key: SortKey; dir: 'asc' | 'desc' };
  onSort: (key: SortKey) => void;
  canRelease: boolean;
  onRelease: (lock: LockInfo) => void;
  /** Called when the rows near the end are drawn: the next window loads (the server pages by cursor). */
  onNearEnd?: () => void;
  /** The first row in view, once scrolling has settled (the stream follows the window that holds it). */
  onTopRow?: (index: number) => void;
  /** A line under the rows (loading more, capped). */
  footer?: string;
  /** Names the query: a new one (another sort or filter) starts again at the top of the list. */
  topKey?: string;
}

export function LockTable(props: Props) {
  const { locks, withSource = false, sort, onSort, footer } = props;
  // the table's columns fit from these widths (every column and the Release button); below, cards
  const narrow = useNarrow(withSource ? 1280 : 1024);
  const { scroller, virtualizer, items } = useLockRows({ ...props, count: locks.length, narrow });
  return (
    <div
      role="table"
      aria-label="Locks"
      aria-rowcount={locks.length + 1}
      className="overflow-x-auto rounded-lg ring-1 ring-zinc-200 dark:ring-zinc-700"
    >
      {/* Wide: header and rows scroll sideways together inside the table, never the page */}
      <div className={narrow ? '' : withSource ? 'min-w-[70.5rem]' : 'min-w-[62rem]'}>
        <div role="rowgroup">
          <LockTableHeader narrow={narrow} withSource={withSource} sort={sort} onSort={onSort} />
        </div>
        <div
          ref={scroller}
          role="rowgroup"
          className="max-h-[65vh] overflow-y-auto overflow-x-hidden"
          data-testid="lock-rows"
        >
          {/* The drawn rows flow one after another inside one block placed at the first one's offset: a row taller
              than its estimate pushes the next down instead of overlapping it while it is measured again */}
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            <div
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                transform: `translateY(${items[0]?.start ?? 0}px)`,
              }}
            >
              <DrawnRows
                {...props}
                withSource={withSource}
                narrow={narrow}
                items={items}
                measure={virtualizer.measureElement}
              />
            </div>
          </div>
        </div>
        {footer && (
          <p className="border-t border-zinc-100 px-3 py-2 text-sm text-zinc-600 dark:border-zinc-800" role="status">
            {footer}
          </p>
        )}
      </div>
    </div>
  );
}

/** The rows drawn: each a row of the grid (or a card when narrow), with the attributes tests and the virtualizer read. */
function DrawnRows({
  locks,
  withSource,
  serverNow,
  canRelease,
  onRelease,
  narrow,
  items,
  measure,
}: Props & {
  withSource: boolean;
  narrow: boolean;
  items: { index: number }[];
  measure: (el: Element | null) => void;
}) {
  return items.map((item) => {
    const lock = locks[item.index]!;
    const row = {
      role: 'row',
      'aria-rowindex': item.index + 2,
      'data-lock': lock.name,
      'data-version': lock.version ?? `${lock.generation}.${lock.metageneration}`,
      'data-expires': lock.expiresAt ?? '',
      'data-health': lock.health,
      'data-index': item.index,
      ref: measure,
      style: { minHeight: ROW_HEIGHT },
    };
    const key = `${lock.bucket}/${lock.name}`;
    const action = canRelease && <ReleaseButton lock={lock} onRelease={onRelease} />;
    const cells = { lock, withSource, serverNow, action, name: <NameLink lock={lock} /> };
    return narrow ? <LockCard key={key} row={row} {...cells} /> : <LockRow key={key} row={row} {...cells} />;
  });
}
