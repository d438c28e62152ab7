// GET /api/health – liveness for load balancers; no session, no details beyond the status: `degraded` while the
// access file is deleted or cannot be used (its last good grants within their grace, or withdrawn), still a 200
import { accessFileState } from '@/lib/server/auth/access-file';

export const dynamic = 'force-dynamic';

export function GET(): Response {
  const status = accessFileState().state === 'ok' ? 'ok' : 'degraded';
  return Response.json({ status }, { headers: { 'cache-control': 'no-store' } });
}
