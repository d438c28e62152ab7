'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import Link from 'next/link';
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { LockInfo } from '@/lib/lock/types';
import { lockHref } from '@/lib/console/queries';
import { LockCard, LockRow } from './lock-row';
import { LockTableHeader, type SortKey } from './lock-table-header';
import { useNarrow } from '../ui/use-narrow';

export type { SortKey } from './lock-table-header';

/** First guesses only: every rendered row is measured (a card's height depends on its width and wrapping). */
const ROW_HEIGHT = 52;
const CARD_HEIGHT = 96;
/** Rows drawn before the virtualizer has measured the list (a screenful). */
const FIRST_PAINT = 15;

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
  const {
    locks,
    withSource = false,
    serverNow,
    sort,
    onSort,
    canRelease,
    onRelease,
    onNearEnd,
    onTopRow,
    footer,
    topKey,
  } = props;
  const scroller = useRef<HTMLDivElement>(null);
  // the table's columns fit from these widths (every column and the Release button); below, cards
  const narrow = useNarrow(withSource ? 1280 : 1024);
  const rowHeight = narrow ? CARD_HEIGHT : ROW_HEIGHT;
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is used as documented
  const virtualizer = useVirtualizer({
    count: locks.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    // rounded up, never to the nearest pixel: a card 97.4 px tall counted as 97 would overlap the next by 0.4 px
    measureElement: (el, entry) =>
      Math.ceil(entry?.borderBoxSize?.[0]?.blockSize ?? (el as HTMLElement).getBoundingClientRect().height),
    overscan: 12,
    initialRect: { width: 1200, height: 640 },
  });
  // Rows and cards differ in height: when the layout switches (after hydration on a phone, or as the window is
  // resized), drop every size measured in the other layout; the rendered rows are measured again at once.
  useLayoutEffect(() => {
    virtualizer.measure();
  }, [narrow, virtualizer]);
  useEffect(() => {
    scroller.current?.scrollTo(0, 0);
  }, [topKey]);
  const measured = virtualizer.getVirtualItems();
  // before the list is measured (the server's HTML, the first paint) the first rows are drawn as they come: rows at
  // first paint instead of after hydration
  const items: { index: number; start: number }[] =
    measured.length || !locks.length
      ? measured
      : locks.slice(0, FIRST_PAINT).map((_, index) => ({ index, start: index * rowHeight }));
  const lastDrawn = items[items.length - 1]?.index ?? -1;
  useEffect(() => {
    if (onNearEnd && lastDrawn >= locks.length - 20) onNearEnd();
  }, [onNearEnd, lastDrawn, locks.length]);
  const topRow = virtualizer.range?.startIndex ?? 0;
  useEffect(() => {
    if (!onTopRow) return;
    const settled = setTimeout(() => onTopRow(topRow), 400);
    return () => clearTimeout(settled);
  }, [onTopRow, topRow]);
  const release = (lock: LockInfo) =>
    canRelease && (
      <button
        type="button"
        onClick={() => onRelease(lock)}
        className="rounded px-2 py-1 text-xs font-medium text-red-700 ring-1 ring-inset ring-red-300 hover:bg-red-50 dark:text-red-300 dark:ring-red-700 dark:hover:bg-red-950"
        aria-label={`Force-release ${lock.name}`}
      >
        Release…
      </button>
    );
  const nameLink = (lock: LockInfo) => (
    <Link
      prefetch={false}
      href={lockHref(lock.name, lock.bucket)}
      className="text-blue-700 hover:underline dark:text-blue-300"
    >
      {lock.name}
    </Link>
  );

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
              {items.map((item) => {
                const lock = locks[item.index]!;
                const row = {
                  role: 'row',
                  'aria-rowindex': item.index + 2,
                  'data-lock': lock.name,
                  'data-version': lock.version ?? `${lock.generation}.${lock.metageneration}`,
                  'data-expires': lock.expiresAt ?? '',
                  'data-health': lock.health,
                  'data-index': item.index,
                  ref: virtualizer.measureElement,
                  style: { minHeight: ROW_HEIGHT },
                };
                const key = `${lock.bucket}/${lock.name}`;
                const cells = { lock, withSource, serverNow, action: release(lock), name: nameLink(lock) };
                return narrow ? (
                  <LockCard key={key} row={row} {...cells} />
                ) : (
                  <LockRow key={key} row={row} {...cells} />
                );
              })}
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
