'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRef, useState } from 'react';
import { formatDuration, formatTime, versionText } from '@/lib/format';
import { HEALTH_MEANING, liveHealth } from '@/lib/health';
import { lockQuery } from '@/lib/queries';
import type { LockInfo } from '@/lib/lock/types';
import { Countdown } from './countdown';
import { SafeText } from './safe-text';
import { SuccessNotice } from './ui/notice';
import { ForceReleaseDialog, releasedNotice } from './force-release-dialog';
import { HealthBadge } from './health-badge';
import { LockTimeline } from './lock-timeline';
import { Button } from './ui/button';
import { useLockPush } from './use-lock-push';
import { useReturnFocus } from './use-return-focus';
import { useServerNow } from './use-server-now';

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
  return (
    <section className="space-y-6">
      <p className="text-sm">
        <Link prefetch={false} href="/locks" className="text-blue-700 hover:underline dark:text-blue-300">
          ← All locks
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
      {lock && canRelease && (
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
      <LockTimeline name={name} bucket={bucket} trail={lock?.terms?.trail} />
    </section>
  );
}

function LockFields({ lock, serverNow }: { lock: LockInfo; serverNow: number }) {
  const t = lock.terms;
  const ago = (iso: string) => formatDuration(serverNow - Date.parse(iso));
  const rows: [string, React.ReactNode][] = [
    [
      'Health',
      <>
        <HealthBadge health={lock.health} />{' '}
        <span className="text-sm text-zinc-600 dark:text-zinc-400">{HEALTH_MEANING[lock.health]}</span>
      </>,
    ],
    ['When it changes', healthChange(lock)],
    ['Identity', lock.identity !== undefined ? <SafeText key="i" text={lock.identity} /> : 'unknown'],
    ...(lock.host
      ? [['Host / pid', <SafeText key="h" text={`${lock.host} / ${lock.pid ?? '?'}`} />] as [string, React.ReactNode]]
      : []),
    ...(lock.purpose ? [['Purpose', <SafeText key="p" text={lock.purpose} />] as [string, React.ReactNode]] : []),
    ['Format', `${lock.formatLabel} (${lock.format})`],
    ...lock.details.map(([label, value]): [string, React.ReactNode] => [label, <SafeText key={label} text={value} />]),
    ...(lock.sensitive ?? []).map(([label, value]): [string, React.ReactNode] => [
      `${label} (unmasked: operators only)`,
      <span key={label} className="break-all font-mono text-xs">
        <SafeText text={value} />
      </span>,
    ]),
    ...(lock.note ? [['Note', <SafeText key="n" text={lock.note} />] as [string, React.ReactNode]] : []),
    ['Releasing', lock.releaseNote],
    [t?.since ?? 'Held since', `${formatTime(lock.createdAt)} (${ago(lock.createdAt)})`],
    ...(t?.updated
      ? [[t.updated, `${formatTime(lock.updatedAt)} (${ago(lock.updatedAt)} ago)`] as [string, React.ReactNode]]
      : []),
    ['Expires in', <Countdown key="c" expiresAt={lock.expiresAt} serverNow={serverNow} />],
    ...(t?.ttl && lock.ttlMs
      ? [
          [
            t.ttl,
            `${formatDuration(lock.ttlMs)}${lock.refreshIntervalMs ? ` / ${formatDuration(lock.refreshIntervalMs)}` : ''}`,
          ] as [string, React.ReactNode],
        ]
      : []),
    ['Store', `${t?.storeLabel ?? lock.store ?? ''} · ${lock.source ?? lock.bucket}`],
    [
      `Version (${t?.versionName ?? 'version'})`,
      <span key="v" className="font-mono" data-testid="detail-version">
        {versionText(lock)}
      </span>,
    ],
  ];
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <dl className="grid grid-cols-[12rem_1fr] gap-x-4 gap-y-2 text-sm">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-zinc-500">{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
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

function healthChange(lock: LockInfo): string {
  if (lock.health === 'free') return 'Nobody holds it; the next holder replaces this released marker.';
  if (lock.health === 'unknown')
    return 'Never by itself: a foreign lock stays until its owner or an operator removes it.';
  if (lock.health === 'expired')
    return lock.terms?.expiredMeans
      ? `It stays so until an operator clears it: ${lock.terms.expiredMeans}.`
      : 'It stays expired until an acquirer takes it over or an operator clears it.';
  const overdueAt = lock.refreshIntervalMs ? Date.parse(lock.updatedAt) + 1.5 * lock.refreshIntervalMs : undefined;
  const parts = [];
  if (overdueAt && lock.health !== 'overdue')
    parts.push(`overdue at ${formatTime(new Date(overdueAt).toISOString())} without a refresh`);
  if (lock.expiresAt) parts.push(`expired at ${formatTime(lock.expiresAt)} without a refresh`);
  if (parts.length === 0) return lock.terms?.liveness ?? 'Only its owner or an operator changes it.';
  return `Becomes ${parts.join('; ')}. Every refresh pushes these back.`;
}
