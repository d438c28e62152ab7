import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { getQueryClient } from '@/components/get-query-client';
import { LockDetail } from '@/components/lock-detail';
import { env } from '@/lib/server/env';
import { getForConsole } from '@/lib/server/locks';
import { requireUser } from '@/lib/server/session';
import { lockQuery } from '@/lib/queries';

export const dynamic = 'force-dynamic';

export default async function LockPage({ params }: { params: Promise<{ name: string[] }> }) {
  const user = await requireUser();
  const name = (await params).name.map(decodeURIComponent).join('/');
  const allowed = env().LOCKBOARD_PREFIXES.some((p) => name.startsWith(p));
  if (!allowed) {
    return (
      <p role="alert">
        &quot;{name}&quot; is not inside a configured prefix ({env().LOCKBOARD_PREFIXES.join(', ')}).
      </p>
    );
  }
  const queryClient = getQueryClient();
  await queryClient.prefetchQuery({ ...lockQuery(name), queryFn: () => getForConsole(name) });
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <LockDetail name={name} canRelease={user.role === 'operator'} />
    </HydrationBoundary>
  );
}
