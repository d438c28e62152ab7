// GET /api/locks – list locks in a configured source (or all of them) with owner, health, expiry, generation and
// metageneration
import { z } from 'zod';
import { LOCK_HEALTHS } from '@/lib/lock';
import { json, parseWith, withRole } from '@/lib/server/http';
import { listForConsole } from '@/lib/server/locks';
import { resolveSources } from '@/lib/server/sources';

const query = z.object({
  source: z.string().max(1100).optional(),
  prefix: z.string().max(1024).optional(),
  pageToken: z.string().max(4096).optional(),
  health: z.enum(LOCK_HEALTHS).optional(),
  q: z.string().max(256).optional(),
});

export const GET = withRole('viewer', async (req, { user }) => {
  const params = parseWith(query, Object.fromEntries(req.nextUrl.searchParams));
  const sensitive = user.role === 'operator';
  return json(await listForConsole(resolveSources(params.source, params.prefix), { ...params, sensitive }));
});
