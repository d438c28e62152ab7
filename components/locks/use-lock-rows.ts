'use client';

// The locks table's virtual list: which rows are drawn and where, measured as they render; the list back at the top
// for a new query; the next window asked for near the end; and the first row in view once scrolling settles.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef } from 'react';

/** First guesses only: every rendered row is measured (a card's height depends on its width and wrapping). */
export const ROW_HEIGHT = 52;
const CARD_HEIGHT = 96;
/** Rows drawn before the virtualizer has measured the list (a screenful). */
const FIRST_PAINT = 15;

export function useLockRows(o: {
  count: number;
  narrow: boolean;
  topKey?: string;
  onNearEnd?: () => void;
  onTopRow?: (index: number) => void;
}) {
  const { count, narrow, topKey, onNearEnd, onTopRow } = o;
  const scroller = useRef<HTMLDivElement>(null);
  const rowHeight = narrow ? CARD_HEIGHT : ROW_HEIGHT;
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is used as documented
  const virtualizer = useVirtualizer({
    count,
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
    measured.length || !count
      ? measured
      : Array.from({ length: Math.min(count, FIRST_PAINT) }, (_, index) => ({ index, start: index * rowHeight }));
  const lastDrawn = items[items.length - 1]?.index ?? -1;
  useEffect(() => {
    if (onNearEnd && lastDrawn >= count - 20) onNearEnd();
  }, [onNearEnd, lastDrawn, count]);
  const topRow = virtualizer.range?.startIndex ?? 0;
  useEffect(() => {
    if (!onTopRow) return;
    const settled = setTimeout(() => onTopRow(topRow), 400);
    return () => clearTimeout(settled);
  }, [onTopRow, topRow]);
  return { scroller, virtualizer, items };
}
