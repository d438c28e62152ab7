import { forbidden } from 'next/navigation';
import { DiscoverPanel } from '@/components/sources/discover-panel';
import { DEFAULT_LIMITS } from '@/lib/cli/discover/budget';
import { isEveryLock, scopeOf } from '@/lib/server/auth/access';
import { requireRole } from '@/lib/server/auth/session';
import { mayOpen, pageNeed } from '@/lib/console/page-roles';

export const dynamic = 'force-dynamic';

export default async function SourcesPage() {
  const need = pageNeed('/sources');
  const user = await requireRole(need.role, '/sources');
  // an operator of some locks only: the 403 page names the grant on "*" it lacks (as POST /api/sources/discover would)
  if (!mayOpen('/sources', user.role, (role) => isEveryLock(scopeOf(user.access, role)))) forbidden();
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Sources</h1>
      <p className="mb-4 max-w-3xl text-sm">
        Discover looks at the stores of the configured sources (every bucket of their project or account, every database
        of their server, every namespace of their cluster) as <code>lockboard discover</code> does: read-only, at most{' '}
        {DEFAULT_LIMITS.sample} keys, objects or rows, {DEFAULT_LIMITS.maxRequests} requests and{' '}
        {DEFAULT_LIMITS.maxSeconds} s per store. What it finds that no configured source watches is listed with the
        entry to add to <code>LOCKBOARD_SOURCES</code>.
      </p>
      <DiscoverPanel />
    </>
  );
}
