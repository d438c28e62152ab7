'use client';
// The lock a release dialog is about, in its store's words (lib/console/lock-facts.ts): holder, format, health, version, the
// store's rule and what clearing does to the holder, and whether it is safe to clear.
import { dialogFacts, dialogSentences } from '@/lib/console/lock-facts';
import type { LockInfo } from '@/lib/lock/types';
import { HealthBadge } from '../ui/health-badge';
import { SafeText } from '../ui/safe-text';

export function ReleaseSummary({ target, serverNow }: { target: LockInfo; serverNow: number }) {
  const { rule, safe } = dialogSentences(target);
  return (
    <>
      <dl className="grid grid-cols-[8rem_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        {dialogFacts(target, serverNow).map((f) => (
          <div key={f.label} className="contents">
            <dt className="text-zinc-500">{f.label}</dt>
            {f.kind === 'health' ? (
              <dd>
                <HealthBadge health={target.health} meaning={f.text} />{' '}
                <span className="text-xs text-zinc-500">{f.text}</span>
              </dd>
            ) : (
              <dd
                className={f.kind === 'version' ? 'font-mono text-xs' : 'break-all'}
                data-testid={f.kind === 'version' ? 'dialog-version' : TEST_IDS[f.label]}
              >
                <SafeText text={f.text} />
              </dd>
            )}
          </div>
        ))}
      </dl>
      {rule && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="dialog-store-rule">
          {rule}
        </p>
      )}
      <p
        role="note"
        className={`rounded-md p-3 text-sm ${target.health === 'expired' ? 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200' : 'bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200'}`}
      >
        <strong>Safe to clear? </strong>
        {safe}
      </p>
      <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="dialog-release-note">
        {target.releaseNote}
      </p>
    </>
  );
}

const TEST_IDS: Record<string, string> = {
  Holder: 'dialog-holder',
  Format: 'dialog-format',
  Version: 'dialog-version',
};
