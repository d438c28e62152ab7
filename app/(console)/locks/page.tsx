import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { getQueryClient } from '@/components/get-query-client';
import { LocksView } from '@/components/locks-view';
import { env } from '@/lib/server/env';
import { listForConsole } from '@/lib/server/locks';
import { requireRole } from '@/lib/server/session';
import { locksQuery } from '@/lib/queries';

export const dynamic = 'force-dynamic';

export default async function LocksPage({ searchParams }: { searchParams: Promise<{ prefix?: string }> }) {
  const requested = (await searchParams).prefix;
  const user = await requireRole('viewer', `/locks${requested ? `?prefix=${encodeURIComponent(requested)}` : ''}`);
  const prefixes = env().LOCKBOARD_PREFIXES;
  if (prefixes.length === 0) {
    return (
      <p className="p-6">
        No prefixes are configured. Set LOCKBOARD_PREFIXES (for example &quot;locks/,ci/&quot;) and restart.
      </p>
    );
  }
  const prefix = requested && prefixes.includes(requested) ? requested : prefixes[0]!;
  const queryClient = getQueryClient();
  // The server calls the lib directly; the client polls the route. A storage failure leaves the client to retry.
  await queryClient.prefetchQuery({ ...locksQuery(prefix), queryFn: () => listForConsole(prefix) });
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <h1 className="mb-4 text-xl font-semibold">Locks</h1>
      <Suspense>
        <LocksView key={prefix} prefixes={prefixes} prefix={prefix} canRelease={user.role === 'operator'} />
      </Suspense>
    </HydrationBoundary>
  );
}
