'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRef, useState } from 'react';
import { liveHealth } from '@/lib/console/health';
import { detailFacts, type LockFact } from '@/lib/console/lock-facts';
import { lockQuery } from '@/lib/console/queries';
import type { LockInfo } from '@/lib/lock/types';
import { Countdown } from '../ui/countdown';
import { SafeText } from '../ui/safe-text';
import { SuccessNotice } from '../ui/notice';
import { ForceReleaseDialog, releasedNotice } from '../release/force-release-dialog';
import { HealthBadge } from '../ui/health-badge';
import { LockTimeline } from './lock-timeline';
import { LockWaiters, WaiterNotReleased } from './lock-waiters';
import { Button } from '../ui/button';
import { useLockPush } from './use-lock-push';
import { useReturnFocus } from '../ui/use-return-focus';
import { useServerNow } from '../ui/use-server-now';
import { CliVersion } from '../cli-version';
import { useListReturn } from '../locks/list-return';

export function LockDetail({ name, bucket, canRelease }: { name: string; bucket?: string; canRelease: boolean }) {
  const live = useLockPush(name, bucket);
  // pushed while the lock's stream is open; polled only when it cannot be
  const query = useQuery({ ...lockQuery(name, bucket), ...(live === 'polling' ? {} : { refetchInterval: false }) });
  const fetched = query.data;
  const [releasing, setReleasing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const focus = useReturnFocus();
  const noticeRef = useRef<HTMLDivElement>(null);
  const serverNow = useServerNow(fetched?.serverTime, query.dataUpdatedAt);
  const lock = fetched && { ...fetched, health: liveHealth(fetched, serverNow) };
  const back = useListReturn(fetched?.source);
  return (
    <section className="space-y-6">
      <p className="text-sm">
        <Link prefetch={false} href={back.href} className="text-blue-700 hover:underline dark:text-blue-300">
          ← {back.label}
        </Link>
      </p>
      <h1 className="font-mono text-xl font-semibold">
        <SafeText text={name} />
      </h1>
      {query.isError && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900 dark:bg-red-950 dark:text-red-200">
          Could not refresh: {query.error.message}
        </p>
      )}
      {notice && <SuccessNotice ref={noticeRef}>{notice}</SuccessNotice>}
      {lock === null && (
        <p className="rounded-md p-4 ring-1 ring-zinc-200 dark:ring-zinc-700">
          This lock is free: no lock object exists right now.
        </p>
      )}
      {lock && <LockFields lock={lock} serverNow={serverNow} />}
      {lock && <LockWaiters lock={lock} serverNow={serverNow} />}
      {lock && <WaiterNotReleased lock={lock} />}
      {lock && canRelease && !(lock as { queuedFor?: string }).queuedFor && (
        <Button
          variant="danger"
          onClick={() => {
            focus.remember();
            setNotice(null);
            setReleasing(true);
          }}
        >
          Force-release…
        </Button>
      )}
      {lock && releasing && (
        <ForceReleaseDialog
          lock={lock}
          serverNow={serverNow}
          onClose={(released) => {
            setReleasing(false);
            if (released) setNotice(releasedNotice(lock, released));
            focus.restore(released ? () => noticeRef.current : undefined);
          }}
        />
      )}
      <LockTimeline name={name} bucket={bucket} trail={lock?.terms?.trail} free={lock === null} />
    </section>
  );
}

function LockFields({ lock, serverNow }: { lock: LockInfo; serverNow: number }) {
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
