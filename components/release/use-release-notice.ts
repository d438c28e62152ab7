'use client';

import { useRef, useState } from 'react';
import { useReturnFocus } from '../ui/use-return-focus';

/**
 * The confirmation a release dialog leaves on its page, and the keyboard's place around it: `open` remembers what had
 * focus and clears the last confirmation; `close` shows what the dialog did, if anything, and focuses it (or gives
 * focus back to what opened the dialog).
 */
export function useReleaseNotice() {
  const [notice, setNotice] = useState<string | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const focus = useReturnFocus();
  const open = () => {
    focus.remember();
    setNotice(null);
  };
  const close = (said: string | null) => {
    if (said) setNotice(said);
    focus.restore(said ? () => noticeRef.current : undefined);
  };
  return { notice, noticeRef, open, close };
}
