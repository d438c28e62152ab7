// GET /api/locks/<name...>[?bucket=B] – one lock's view with the serverTime it was judged at (its store's clock), or
// { name, bucket, absent: true, serverTime } when nothing exists there (a free lock is a state, not a client error)
import { lockGetQuery as query } from '@/lib/server/api-schemas';
import { json } from '@/lib/server/api-error';
import { parseWith } from '@/lib/server/request-body';
import { withRole } from '@/lib/server/http';
import { sourceOfLock } from '@/lib/server/sources';
import { NAME_IN_QUERY } from '@/lib/console/queries';

export const GET = withRole<{ name: string[] }>('viewer', async (req, { params, board }) => {
  const q = parseWith(query, Object.fromEntries(req.nextUrl.searchParams));
  const { bucket } = q;
  // a name with `.` or `..` segments comes whole in ?name= (lockHref)
  const name = params.name.join('/') === NAME_IN_QUERY && q.name !== undefined ? q.name : params.name.join('/');
  // outside the caller's grants: exactly the answer for a lock that does not exist
  return json(await board.get(sourceOfLock(name, bucket), name));
});
