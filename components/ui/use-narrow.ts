'use client';

import { useSyncExternalStore } from 'react';

/**
 * Below `minWidth` px the rows become cards: name, health, owner, expiry and the action stay visible on a phone, and
 * a table never needs sideways scrolling to reach its Release button. Whether the viewport is narrow; false on the
 * server and during hydration, so the markup matches.
 */
export function useNarrow(minWidth = 768): boolean {
  const query = `(max-width: ${minWidth - 1}px)`;
  return useSyncExternalStore(
    (onChange) => {
      const mq = window.matchMedia(query);
      mq.addEventListener('change', onChange);
      return () => mq.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}
