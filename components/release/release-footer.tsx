'use client';
// The foot of a release dialog: why the last attempt failed, then Cancel (Close once it is done) and the submit button.
import type { Ref } from 'react';
import { Button } from '../ui/button';

export function ReleaseFooter({
  error,
  done,
  closeRef,
  onCancel,
  submitDisabled,
  submitLabel,
}: {
  /** The failed attempt's message, shown as an alert above the buttons. */
  error: string | null;
  /** Nothing left to submit (a conflict or the results shown): Close instead of Cancel, and no submit button. */
  done: boolean;
  closeRef?: Ref<HTMLButtonElement>;
  onCancel: () => void;
  submitDisabled: boolean;
  submitLabel: string;
}) {
  return (
    <>
      {error !== null && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button ref={closeRef} onClick={onCancel}>
          {done ? 'Close' : 'Cancel'}
        </Button>
        {!done && (
          <Button type="submit" variant="danger" disabled={submitDisabled}>
            {submitLabel}
          </Button>
        )}
      </div>
    </>
  );
}
