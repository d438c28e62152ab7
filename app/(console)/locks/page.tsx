import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { Suspense } from 'react';
import { getQueryClient } from '@/components/get-query-client';
import { RememberListQuery } from '@/components/locks/list-return';
import { LocksView } from '@/components/locks/locks-view';
import { firstValues, lockQueryOf } from '@/lib/server/lock-query';
import { requireRole } from '@/lib/server/auth/session';
import { ApiError } from '@/lib/server/api-error';
import type { Board } from '@/lib/server/board';
import type { Selection } from '@/lib/server/sources';
import { allows } from '@/lib/server/auth/roles';
import { locksQuery } from '@/lib/console/queries';

export const dynamic = 'force-dynamic';

type Search = Record<string, string | string[] | undefined>;

export default async function LocksPage({ searchParams }: { searchParams: Promise<Search> }) {
  const params = await searchParams;
  const given = firstValues(params);
  const qs = new URLSearchParams(given).toString();
  const user = await requireRole('viewer', `/locks${qs ? `?${qs}` : ''}`);
  // the sources with something in the user's grants: the selector offers no other
  const configured = user.board.sources();
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
  const { selection, unknown } = selectionOf(user.board, requested, legacyPrefix);
  const source = selection.id;
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
  // under the key the page asks by (locks-view.tsx: filter, health and verdict chips, sort), so the rows are in the HTML
  const asked = {
    ...(query.q ? { q: query.q } : {}),
    ...(query.health ? { health: query.health } : {}),
    ...(query.verdict ? { verdict: query.verdict } : {}),
    sort: query.sort,
    order: query.order,
  };
  await queryClient.prefetchQuery({
    ...locksQuery(source, asked),
    queryFn: () => user.board.query(selection, { ...asked, limit: query.limit }),
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
          canRelease={allows(user.role, 'releaser')}
          releasesAny={allows(user.role, 'operator')}
          unknownSource={unknown}
        />
      </Suspense>
    </HydrationBoundary>
  );
}

/**
 * The sources shown: the route's selection (board.select); one it would refuse (not configured, or none of the
 * caller's) shows the caller's landing with a note naming what was asked.
 */
function selectionOf(
  board: Board,
  requested: string | undefined,
  legacyPrefix: string | undefined,
): { selection: Selection; unknown?: string } {
  try {
    return { selection: board.select(requested, legacyPrefix) };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { selection: board.select(), unknown: requested ?? legacyPrefix };
  }
}
