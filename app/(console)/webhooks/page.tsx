import { WebhooksView } from '@/components/webhooks/webhooks-view';
import { requireRole } from '@/lib/server/auth/session';

export const dynamic = 'force-dynamic';

export default async function WebhooksPage() {
  await requireRole('operator', '/webhooks');
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Webhooks</h1>
      <WebhooksView />
    </>
  );
}
