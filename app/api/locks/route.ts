// GET /api/locks – one window of the locks in a configured source (or all of them), filtered, sorted and paged on
// the server (`?source&q&health&format&sort&order&cursor&limit`), with counts by health over the whole selection
import { json } from '@/lib/server/api-error';
import { withRole } from '@/lib/server/http';
import { lockQueryOf } from '@/lib/server/lock-query';
import { queryForConsole } from '@/lib/server/locks';
import { resolveSources } from '@/lib/server/sources';

export const GET = withRole('viewer', async (req, { user }) => {
  const { source, prefix, query } = lockQueryOf(Object.fromEntries(req.nextUrl.searchParams));
  const sensitive = user.role === 'operator';
  return json(await queryForConsole(resolveSources(source, prefix), query, { sensitive }));
});
