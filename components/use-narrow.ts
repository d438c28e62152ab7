'use client';

import { useSyncExternalStore } from 'react';

/** Below this width the rows become cards: name, health, owner, expiry and the action stay visible at 390 px. */
const NARROW_QUERY = '(max-width: 767px)';
function subscribeNarrow(onChange: () => void): () => void {
  const mq = window.matchMedia(NARROW_QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

/** Whether the viewport is narrow; false on the server and during hydration, so the markup matches. */
export function useNarrow(): boolean {
  return useSyncExternalStore(
    subscribeNarrow,
    () => window.matchMedia(NARROW_QUERY).matches,
    () => false,
  );
}
