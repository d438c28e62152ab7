'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { liveHealth } from '@/lib/console/health';
import { lockQuery } from '@/lib/console/queries';
import type { LockInfo } from '@/lib/lock/types';
import { SafeText } from '../ui/safe-text';
import { SuccessNotice } from '../ui/notice';
import { ForceReleaseDialog } from '../release/force-release-dialog';
import { releasedNotice } from '../release/released';
import { useReleaseNotice } from '../release/use-release-notice';
import { LockFields } from './lock-fields';
import { LockTimeline } from './lock-timeline';
import { LockWaiters, WaiterNotReleased } from './lock-waiters';
import { Button } from '../ui/button';
import { useLockPush } from './use-lock-push';
import { useServerNow } from '../ui/use-server-now';
import { useListReturn } from '../locks/list-return';
import { HoldActions } from '../locks/hold-actions';

export function LockDetail(p: {
  name: string;
  bucket?: string;
  /** The lock's source as the server resolved it: the back link keeps it once the lock is released (no data). */
  source?: string;
  canRelease: boolean;
  /** An operator: "Hold…" on a free lock, "End hold" on a hold. */
  canHold?: boolean;
}) {
  const { name, bucket, canRelease } = p;
  const live = useLockPush(name, bucket);
  // pushed while the lock's stream is open; polled only when it cannot be
  const query = useQuery({ ...lockQuery(name, bucket), ...(live === 'polling' ? {} : { refetchInterval: false }) });
  const fetched = query.data;
  const [releasing, setReleasing] = useState(false);
  const { notice, noticeRef, open, close } = useReleaseNotice();
  const serverNow = useServerNow(fetched?.serverTime, query.dataUpdatedAt);
  const lock = fetched && { ...fetched, health: liveHealth(fetched, serverNow) };
  return (
    <section className="space-y-6" data-live={live}>
      <LockHeading name={name} source={p.source ?? fetched?.source} />
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
      <HoldActions {...{ name, bucket, lock, serverNow, onOpen: open, onClose: close }} canHold={p.canHold === true} />
      {lock && <LockFields lock={lock} serverNow={serverNow} />}
      {lock && <LockWaiters lock={lock} serverNow={serverNow} />}
      {lock && <WaiterNotReleased lock={lock} />}
      {lock && (
        <LockRelease
          lock={lock}
          serverNow={serverNow}
          canRelease={canRelease}
          releasing={releasing}
          onOpen={() => {
            open();
            setReleasing(true);
          }}
          onClose={(said) => {
            setReleasing(false);
            close(said);
          }}
        />
      )}
      <LockTimeline name={name} bucket={bucket ?? lock?.bucket} trail={lock?.terms?.trail} free={lock === null} />
    </section>
  );
}

/** The way back to the list it came from, and the lock's name. */
function LockHeading({ name, source }: { name: string; source?: string }) {
  const back = useListReturn(source);
  return (
    <>
      <p className="text-sm">
        <Link prefetch={false} href={back.href} className="text-blue-700 hover:underline dark:text-blue-300">
          ← {back.label}
        </Link>
      </p>
      <h1 className="font-mono text-xl font-semibold">
        <SafeText text={name} />
      </h1>
    </>
  );
}

/** Force-release… (not for a waiter's queue entry) and its dialog, which closes with what it did. */
function LockRelease(p: {
  lock: LockInfo;
  serverNow: number;
  canRelease: boolean;
  releasing: boolean;
  onOpen: () => void;
  /** The dialog closed: what it did, for the page to say (null: nothing). */
  onClose: (said: string | null) => void;
}) {
  const { lock } = p;
  return (
    <>
      {p.canRelease && !(lock as { queuedFor?: string }).queuedFor && (
        <Button variant="danger" onClick={p.onOpen}>
          Force-release…
        </Button>
      )}
      {p.releasing && (
        <ForceReleaseDialog
          lock={lock}
          serverNow={p.serverNow}
          onClose={(released) => p.onClose(released ? releasedNotice(lock, released) : null)}
        />
      )}
    </>
  );
}
