import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { getQueryClient } from '@/components/get-query-client';
import { RememberListQuery } from '@/components/locks/list-return';
import { LocksView } from '@/components/locks/locks-view';
import { firstValues, lockQueryOf } from '@/lib/server/lock-query';
import { queryForConsole } from '@/lib/server/locks';
import { requireRole } from '@/lib/server/auth/session';
import { matchSources, sources } from '@/lib/server/sources';
import { locksQuery } from '@/lib/console/queries';

export const dynamic = 'force-dynamic';

type Search = Record<string, string | string[] | undefined>;

export default async function LocksPage({ searchParams }: { searchParams: Promise<Search> }) {
  const params = await searchParams;
  const given = firstValues(params);
  const qs = new URLSearchParams(given).toString();
  const user = await requireRole('viewer', `/locks${qs ? `?${qs}` : ''}`);
  const configured = sources();
  if (configured.length === 0) {
    return (
      <p className="p-6">
        No sources are configured. Set LOCKBOARD_SOURCES (for example &quot;gs://my-locks/locks/&quot;) or
        LOCKBOARD_BUCKET with LOCKBOARD_PREFIXES, and restart.
      </p>
    );
  }
  const requested = typeof params.source === 'string' ? params.source : undefined;
  const legacyPrefix = typeof params.prefix === 'string' ? params.prefix : undefined;
  const match = matchSources(requested, legacyPrefix);
  const selection = match ?? { id: configured[0]!.id, sources: [configured[0]!] };
  const source = selection.id;
  const unknown = match === undefined ? (requested ?? legacyPrefix) : undefined;
  const queryClient = getQueryClient();
  // The server answers the address's query from the sources' indexes for a fast first paint (a first listing page
  // while a pass runs); the stream brings changes. A bad parameter is dropped here (the route names it).
  const query = (() => {
    try {
      return lockQueryOf(given).query;
    } catch {
      return lockQueryOf({}).query;
    }
  })();
  // under the key the page asks by (locks-view.tsx: filter, health chip and sort), so the rows are in the HTML
  const asked = {
    ...(query.q ? { q: query.q } : {}),
    ...(query.health ? { health: query.health } : {}),
    sort: query.sort,
    order: query.order,
  };
  await queryClient.prefetchQuery({
    ...locksQuery(source, asked),
    queryFn: () =>
      queryForConsole(selection, { ...asked, limit: query.limit }, { sensitive: user.role === 'operator' }),
  });
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <h1 className="mb-4 text-xl font-semibold">Locks</h1>
      <Suspense>
        <RememberListQuery source={source} />
        <LocksView
          key={source}
          sources={configured.map(({ id, bucket, prefix }) => ({ id, bucket, prefix }))}
          source={source}
          canRelease={user.role === 'operator'}
          unknownSource={unknown}
        />
      </Suspense>
    </HydrationBoundary>
  );
}
