'use client';
// Who holds a lock, as a row shows it: a hold (lib/cli/hold-lines.ts tells one, as `ls` does) in its own look,
// "Held on purpose by alice · INC-123 · until 14:00 (1h 12m left)"; any other lock its owner.
import { holdLine } from '@/lib/cli/hold-lines';
import type { LockInfo } from '@/lib/lock/types';
import { SafeText } from '../ui/safe-text';

export function HoldOwner({ lock, serverNow }: { lock: LockInfo; serverNow: number }) {
  const line = holdLine(lock, serverNow);
  if (!line) return lock.identity ?? <span className="text-zinc-500">unknown</span>;
  return (
    <span data-testid="hold" className="text-violet-900 dark:text-violet-200">
      <span className="mr-1 rounded bg-violet-100 px-1 text-xs font-semibold dark:bg-violet-900">HOLD</span>
      <SafeText text={line} />
    </span>
  );
}
