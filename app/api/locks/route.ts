// GET /api/locks – list locks under a configured prefix with owner, health, expiry, generation and metageneration
import { z } from 'zod';
import { LOCK_HEALTHS } from '@/lib/lock';
import { json, parseWith, withRole } from '@/lib/server/http';
import { listForConsole, resolvePrefix } from '@/lib/server/locks';

const query = z.object({
  prefix: z.string().max(1024).optional(),
  pageToken: z.string().max(4096).optional(),
  health: z.enum(LOCK_HEALTHS).optional(),
  q: z.string().max(256).optional(),
});

export const GET = withRole('viewer', async (req) => {
  const params = parseWith(query, Object.fromEntries(req.nextUrl.searchParams));
  const prefix = resolvePrefix(params.prefix);
  return json(await listForConsole(prefix, params));
});
