import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { getQueryClient } from '@/components/get-query-client';
import { LockDetail } from '@/components/lock/lock-detail';
import { ApiError } from '@/lib/server/api-error';
import { requireRole } from '@/lib/server/auth/session';
import { allows } from '@/lib/server/auth/roles';
import { sourceOfLock, type Source } from '@/lib/server/sources';
import { lockHref, lockQuery, NAME_IN_QUERY } from '@/lib/console/queries';

export const dynamic = 'force-dynamic';

export default async function LockPage({
  params,
  searchParams,
}: {
  params: Promise<{ name: string[] }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const segments = (await params).name;
  const { bucket: bucketParam, name: nameParam } = await searchParams;
  const bucket = typeof bucketParam === 'string' ? bucketParam : undefined;
  // a name with `.` or `..` segments comes whole in ?name= (lockHref), as URLs would resolve its segments away
  const named = segments.join('/') === NAME_IN_QUERY && typeof nameParam === 'string' ? nameParam : undefined;
  const user = await requireRole(
    'viewer',
    named !== undefined
      ? lockHref(named, bucket)
      : `/locks/${segments.join('/')}${bucket ? `?bucket=${encodeURIComponent(bucket)}` : ''}`,
  );
  const name = named ?? decodeName(segments);
  if (name === null) return <p role="alert">This lock name is not valid: it has a malformed %-escape.</p>;
  let source: Source;
  try {
    source = sourceOfLock(name, bucket);
  } catch (err) {
    if (err instanceof ApiError) return <p role="alert">{err.message}</p>;
    throw err;
  }
  const queryClient = getQueryClient();
  await queryClient.prefetchQuery({
    ...lockQuery(name, bucket),
    queryFn: async () => {
      // outside the user's grants: the page of a lock that does not exist
      const lock = await user.board.get(source, name);
      return 'absent' in lock ? null : lock;
    },
  });
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <LockDetail
        name={name}
        bucket={bucket}
        source={source.id}
        canRelease={allows(user.role, 'releaser')}
        canHold={allows(user.role, 'operator')}
      />
    </HydrationBoundary>
  );
}

/** The lock name from its URL segments; null for a malformed %-escape (a 4xx page, never a 500). */
function decodeName(segments: string[]): string | null {
  try {
    return segments.map(decodeURIComponent).join('/');
  } catch {
    return null;
  }
}
