'use client';
// A lock's facts in its store's words (lib/console/lock-facts.ts), the CLI command that releases this version, and
// the raw metadata when the store has any.
import { detailFacts, type LockFact } from '@/lib/console/lock-facts';
import type { LockInfo } from '@/lib/lock/types';
import { CliVersion } from '../cli-version';
import { Countdown } from '../ui/countdown';
import { HealthBadge } from '../ui/health-badge';
import { VerdictPanel } from '../ui/verdict-badge';
import { verdictOf } from '@/lib/lock/verdict/verdict';
import { SafeText } from '../ui/safe-text';

export function LockFields({ lock, serverNow }: { lock: LockInfo; serverNow: number }) {
  return (
    <div className="grid min-w-0 gap-6 lg:grid-cols-2">
      {/* on a phone each label sits above its value: two columns would push the values off a 390 px screen */}
      <dl className="grid min-w-0 grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[12rem_1fr] sm:gap-y-2">
        {detailFacts(lock, serverNow).map((f) => (
          <div key={f.label} className="contents">
            <dt className="mt-2 text-zinc-500 sm:mt-0">{f.label}</dt>
            <dd className="min-w-0 break-words">
              <FactValue fact={f} lock={lock} serverNow={serverNow} />
            </dd>
          </div>
        ))}
        {lock.version && lock.releasable && (
          <>
            <dt className="text-zinc-500">lockboard release</dt>
            <dd className="min-w-0">
              <CliVersion lock={lock} />
            </dd>
          </>
        )}
      </dl>
      {lock.terms?.rawMetadata && (
        <div>
          <h2 className="mb-2 text-sm font-semibold">Raw metadata</h2>
          <pre className="overflow-auto rounded-md bg-zinc-100 p-3 text-xs dark:bg-zinc-900">
            {JSON.stringify(lock.metadata, null, 2)}
          </pre>
        </div>
      )}
    </div>
  );
}

function FactValue({ fact, lock, serverNow }: { fact: LockFact; lock: LockInfo; serverNow: number }) {
  switch (fact.kind) {
    case 'health':
      return (
        <>
          <HealthBadge health={lock.health} meaning={fact.text} />{' '}
          <span className="text-sm text-zinc-600 dark:text-zinc-400">{fact.text}</span>
          <VerdictPanel verdict={verdictOf(lock)} />
        </>
      );
    case 'countdown':
      return <Countdown expiresAt={lock.expiresAt} serverNow={serverNow} />;
    case 'version':
      return (
        <span className="font-mono" data-testid="detail-version">
          {fact.text}
        </span>
      );
    case 'sensitive':
      return (
        <span className="break-all font-mono text-xs">
          <SafeText text={fact.text} />
        </span>
      );
    default:
      // holders' text (identity, host, purpose, details, notes): marked and isolated
      return <SafeText text={fact.text} />;
  }
}
