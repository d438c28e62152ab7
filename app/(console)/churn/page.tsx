import { ChurnView } from '@/components/churn-view';
import { windowFor } from '@/lib/queries';
import { requireUser } from '@/lib/server/session';

export const dynamic = 'force-dynamic';

export default async function ChurnPage() {
  await requireUser();
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Lock churn and audit trail</h1>
      <ChurnView initialWindow={windowFor('24h')} />
    </>
  );
}
