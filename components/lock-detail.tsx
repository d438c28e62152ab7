'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRef, useState } from 'react';
import { formatDuration, formatTime } from '@/lib/format';
import { HEALTH_MEANING, liveHealth } from '@/lib/health';
import { lockQuery } from '@/lib/queries';
import type { LockInfo } from '@/lib/lock/types';
import { Countdown } from './countdown';
import { SuccessNotice } from './ui/notice';
import { ForceReleaseDialog, releasedNotice } from './force-release-dialog';
import { HealthBadge } from './health-badge';
import { LockTimeline } from './lock-timeline';
import { Button } from './ui/button';
import { useReturnFocus } from './use-return-focus';
import { useServerNow } from './use-server-now';

export function LockDetail({ name, bucket, canRelease }: { name: string; bucket?: string; canRelease: boolean }) {
  const query = useQuery(lockQuery(name, bucket));
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
      <h1 className="font-mono text-xl font-semibold">{name}</h1>
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
      <LockTimeline name={name} bucket={bucket} />
    </section>
  );
}

function LockFields({ lock, serverNow }: { lock: LockInfo; serverNow: number }) {
  const rows: [string, React.ReactNode][] = [
    [
      'Health',
      <>
        <HealthBadge health={lock.health} />{' '}
        <span className="text-sm text-zinc-600 dark:text-zinc-400">{HEALTH_MEANING[lock.health]}</span>
      </>,
    ],
    ['When it changes', healthChange(lock)],
    ['Identity', lock.identity ?? 'unknown'],
    ['Host / pid', lock.host ? `${lock.host} / ${lock.pid ?? '?'}` : '—'],
    ['Purpose', lock.purpose ?? '—'],
    ['Format', `${lock.formatLabel} (${lock.format})`],
    ...lock.details.map(([label, value]): [string, React.ReactNode] => [label, value]),
    ...(lock.format === 'terraform' && (lock.store ?? 'gcs') === 'gcs'
      ? [
          [
            'Lock ID',
            <span key="tf" className="font-mono">
              {lock.generation} (terraform force-unlock {lock.generation})
            </span>,
          ] as [string, React.ReactNode],
        ]
      : []),
    ...(lock.note ? [['Note', lock.note] as [string, React.ReactNode]] : []),
    ['Releasing', lock.releaseNote],
    ['Held since', `${formatTime(lock.createdAt)} (${formatDuration(serverNow - Date.parse(lock.createdAt))})`],
    ['Last refresh', `${formatTime(lock.updatedAt)} (${formatDuration(serverNow - Date.parse(lock.updatedAt))} ago)`],
    ['Expires in', <Countdown key="c" expiresAt={lock.expiresAt} serverNow={serverNow} />],
    [
      'TTL / refresh interval',
      lock.ttlMs ? `${formatDuration(lock.ttlMs)} / ${formatDuration(lock.refreshIntervalMs ?? 0)}` : '—',
    ],
    ...(lock.store && lock.store !== 'gcs'
      ? [
          ['Store', lock.source ?? lock.store] as [string, React.ReactNode],
          [
            'Version',
            <span key="v" className="font-mono" data-testid="detail-version">
              {lock.versionLabel}
            </span>,
          ] as [string, React.ReactNode],
        ]
      : [
          [
            'Generation (fencing token)',
            <span key="g" className="font-mono">
              {lock.generation}
            </span>,
          ] as [string, React.ReactNode],
          [
            'Metageneration',
            <span key="m" className="font-mono" data-testid="detail-metageneration">
              {lock.metageneration}
            </span>,
          ] as [string, React.ReactNode],
        ]),
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
      <div>
        <h2 className="mb-2 text-sm font-semibold">Raw metadata</h2>
        <pre className="overflow-auto rounded-md bg-zinc-100 p-3 text-xs dark:bg-zinc-900">
          {JSON.stringify(lock.metadata, null, 2)}
        </pre>
      </div>
    </div>
  );
}

function healthChange(lock: LockInfo): string {
  if (lock.health === 'free') return 'Nobody holds it; the next holder replaces this released marker.';
  if (lock.health === 'unknown')
    return 'Never by itself: a foreign lock stays until its owner or an operator removes it.';
  if (lock.health === 'expired') return 'It stays expired until an acquirer takes it over or an operator clears it.';
  const overdueAt = lock.refreshIntervalMs ? Date.parse(lock.updatedAt) + 1.5 * lock.refreshIntervalMs : undefined;
  const parts = [];
  if (overdueAt && lock.health !== 'overdue')
    parts.push(`overdue at ${formatTime(new Date(overdueAt).toISOString())} without a refresh`);
  if (lock.expiresAt) parts.push(`expired at ${formatTime(lock.expiresAt)} without a refresh`);
  return `Becomes ${parts.join('; ')}. Every refresh pushes these back.`;
}
