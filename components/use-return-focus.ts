'use client';

import { useCallback, useRef } from 'react';

/**
 * Keyboard users keep their place: remember what had focus when a dialog opened, and give focus back to it when the
 * dialog closes (or to `fallback`, e.g. the confirmation, when that element is gone: a released lock's row).
 */
export function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  const remember = useCallback(() => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }, []);
  const restore = useCallback((fallback?: () => HTMLElement | null) => {
    // After React has committed the close (the dialog and perhaps the row are gone)
    requestAnimationFrame(() => {
      const el = opener.current;
      if (el?.isConnected) el.focus();
      else fallback?.()?.focus();
    });
  }, []);
  return { remember, restore };
}
