// GET /api/locks/<name...> – one lock's LockInfo, with the serverTime it was judged at (404 when absent)
import { ApiError, json, prefixOf, withRole } from '@/lib/server/http';
import { getForConsole } from '@/lib/server/locks';

export const GET = withRole<{ name: string[] }>('viewer', async (_req, { params }) => {
  const name = params.name.join('/');
  prefixOf(name);
  const lock = await getForConsole(name);
  if (!lock) throw new ApiError('not_found', `No lock "${name}": it is free.`);
  return json(lock);
});
