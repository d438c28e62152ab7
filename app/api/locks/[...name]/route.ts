// GET /api/locks/<name...>[?bucket=B] – one lock's LockInfo, with the serverTime it was judged at (404 when absent)
import { z } from 'zod';
import { ApiError, json, parseWith, withRole } from '@/lib/server/http';
import { getForConsole } from '@/lib/server/locks';
import { sourceOfLock } from '@/lib/server/sources';

const query = z.object({ bucket: z.string().max(222).optional() });

export const GET = withRole<{ name: string[] }>('viewer', async (req, { params }) => {
  const name = params.name.join('/');
  const { bucket } = parseWith(query, Object.fromEntries(req.nextUrl.searchParams));
  const source = sourceOfLock(name, bucket);
  const lock = await getForConsole(source, name);
  if (!lock) throw new ApiError('not_found', `No lock "${name}": it is free.`);
  return json(lock);
});
