import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { getQueryClient } from '@/components/get-query-client';
import { LockDetail } from '@/components/lock-detail';
import { env } from '@/lib/server/env';
import { getForConsole } from '@/lib/server/locks';
import { requireRole } from '@/lib/server/session';
import { lockQuery } from '@/lib/queries';

export const dynamic = 'force-dynamic';

export default async function LockPage({ params }: { params: Promise<{ name: string[] }> }) {
  const segments = (await params).name;
  const user = await requireRole('viewer', `/locks/${segments.join('/')}`);
  const name = decodeName(segments);
  if (name === null) return <p role="alert">This lock name is not valid: it has a malformed %-escape.</p>;
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

/** The lock name from its URL segments; null for a malformed %-escape (a 4xx page, never a 500). */
function decodeName(segments: string[]): string | null {
  try {
    return segments.map(decodeURIComponent).join('/');
  } catch {
    return null;
  }
}
