import type { ReactNode, Ref } from 'react';
import { hasUnsafeText } from '@/lib/text/safe-text';
import { SafeText } from './safe-text';

/** A modal <dialog> holding one form: the shell the release dialogs share (Esc and the Close button close it). */
export function ModalForm({
  dialogRef,
  labelledBy,
  width,
  onClose,
  onSubmit,
  children,
}: {
  dialogRef: Ref<HTMLDialogElement>;
  labelledBy: string;
  /** A Tailwind width class, e.g. w-[min(36rem,95vw)]. */
  width: string;
  onClose: () => void;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <dialog
      ref={dialogRef}
      onClose={onClose}
      aria-labelledby={labelledBy}
      className={`m-auto ${width} rounded-xl bg-white p-0 text-zinc-900 shadow-xl dark:bg-zinc-900 dark:text-zinc-100`}
    >
      <form
        method="dialog"
        className="space-y-4 p-6"
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
    </dialog>
  );
}

/** The reason field of a release: required, up to 500 characters, recorded in the audit trail. */
/** The audit reason's limit (the release routes' `reasonField`). */
export const REASON_MAX = 500;

/** What the counter under the reason says: how much is left, and that a longer text was cut, never silently. */
export function reasonCounter(length: number): string {
  if (length >= REASON_MAX) return `${REASON_MAX} / ${REASON_MAX} characters: the limit; anything longer is cut.`;
  return `${length} / ${REASON_MAX} characters`;
}

export function ReasonField({
  label,
  value,
  onChange,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  placeholder: string;
}) {
  return (
    <label className="block text-sm">
      {label}
      <textarea
        required
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={REASON_MAX}
        rows={2}
        aria-describedby="reason-counter"
        className="mt-1 w-full rounded-md border border-zinc-300 bg-transparent p-2 dark:border-zinc-600"
        placeholder={placeholder}
      />
      <span
        id="reason-counter"
        aria-live="polite"
        data-testid="reason-counter"
        className={`block text-right text-xs ${value.length >= REASON_MAX ? 'text-amber-800 dark:text-amber-200' : 'text-zinc-500'}`}
      >
        {reasonCounter(value.length)}
      </span>
      {hasUnsafeText(value) && (
        <span role="status" className="mt-1 block text-xs text-amber-800 dark:text-amber-200">
          The reason contains hidden or control characters, recorded as typed: <SafeText text={value} />
        </span>
      )}
    </label>
  );
}
