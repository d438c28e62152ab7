'use client';

import { useCallback, useRef } from 'react';

/**
 * Keyboard users keep their place: remember what had focus when a dialog opened, and give focus back to it when the
 * dialog closes, or to the confirmation the dialog's action produced.
 */
export function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  const remember = useCallback(() => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }, []);
  /**
   * `confirmation`: focus it instead of the opener (after a release, whose row is about to disappear). It may render
   * a few frames later (the close can come from a promise callback), so it is looked for until it appears.
   */
  const restore = useCallback((confirmation?: () => HTMLElement | null) => {
    let frames = 0;
    const attempt = () => {
      const target = confirmation ? confirmation() : opener.current;
      if (target?.isConnected) target.focus();
      else if (confirmation && frames++ < 30) requestAnimationFrame(attempt);
      else opener.current?.focus();
    };
    requestAnimationFrame(attempt);
  }, []);
  return { remember, restore };
}
