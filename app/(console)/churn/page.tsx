import { ChurnView } from '@/components/churn/churn-view';
import { requireRole } from '@/lib/server/auth/session';

export const dynamic = 'force-dynamic';

export default async function ChurnPage() {
  await requireRole('viewer', '/churn');
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Lock churn and audit trail</h1>
      <ChurnView />
    </>
  );
}
