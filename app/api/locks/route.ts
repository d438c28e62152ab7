// GET /api/locks – one window of the locks in a configured source (or all of them), filtered, sorted and paged on
// the server (`?source&q&health&format&sort&order&cursor&limit`), with counts by health over the whole selection,
// all of it within the caller's grants
import { json } from '@/lib/server/api-error';
import { withRole } from '@/lib/server/http';
import { lockQueryOf } from '@/lib/server/lock-query';

export const GET = withRole('viewer', async (req, { board }) => {
  const { source, prefix, query } = lockQueryOf(Object.fromEntries(req.nextUrl.searchParams));
  // only the locks in the caller's grants: rows, total, matched and counts alike
  return json(await board.query(board.select(source, prefix), query));
});
