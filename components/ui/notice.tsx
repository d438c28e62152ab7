import type { Ref } from 'react';

/** A confirmation after an action (role=status), focusable so keyboard users can land on it. */
export function SuccessNotice({ children, ref }: { children: React.ReactNode; ref?: Ref<HTMLDivElement> }) {
  return (
    <div
      role="status"
      ref={ref}
      tabIndex={-1}
      className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
    >
      {children}
    </div>
  );
}
