'use client';

import { useEffect, useRef } from 'react';

/**
 * The force-release dialog's focus: opened as a modal with the reason focused first (the copy buttons of the CLI
 * command sit above it); when a conflict replaces the form, focus moves to its next action (never lost to the page).
 */
export function useReleaseFocus(conflict: unknown) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
    dialog.current?.querySelector('textarea')?.focus();
  }, []);
  const closeButton = useRef<HTMLButtonElement>(null);
  const reviewButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (conflict) (reviewButton.current ?? closeButton.current)?.focus();
  }, [conflict]);
  return { dialog, closeButton, reviewButton };
}
