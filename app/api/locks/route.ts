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
  /** 1: metadata first, rows whose body is still being read marked `pending` (the console's own pages) */
  progressive: z.enum(['0', '1']).optional(),
});

export const GET = withRole('viewer', async (req, { user }) => {
  const params = parseWith(query, Object.fromEntries(req.nextUrl.searchParams));
  const sensitive = user.role === 'operator';
  const progressive = params.progressive === '1';
  return json(
    await listForConsole(resolveSources(params.source, params.prefix), { ...params, sensitive, progressive }),
  );
});
