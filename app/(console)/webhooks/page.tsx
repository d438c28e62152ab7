import { forbidden } from 'next/navigation';
import { WebhooksView } from '@/components/webhooks/webhooks-view';
import { isEveryLock, scopeOf } from '@/lib/server/auth/access';
import { requireRole } from '@/lib/server/auth/session';
import { mayOpen, pageNeed } from '@/lib/console/page-roles';

export const dynamic = 'force-dynamic';

export default async function WebhooksPage() {
  const need = pageNeed('/webhooks');
  const user = await requireRole(need.role, '/webhooks');
  // an operator of some locks only: the 403 page names the grant on "*" it lacks (as GET /api/webhooks would)
  if (!mayOpen('/webhooks', user.role, (role) => isEveryLock(scopeOf(user.access, role)))) forbidden();
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Webhooks</h1>
      <WebhooksView />
    </>
  );
}
