// GET /api/locks/<name...>[?bucket=B] – one lock's LockInfo with the serverTime it was judged at, or
// { name, bucket, absent: true, serverTime } when no object exists (a free lock is a state, not a client error)
import { z } from 'zod';
import { json, parseWith, withRole } from '@/lib/server/http';
import { serverTimeOf } from '@/lib/lock';
import { getForConsole } from '@/lib/server/locks';
import { sourceOfLock } from '@/lib/server/sources';
import { storage } from '@/lib/server/storage';

const query = z.object({ bucket: z.string().max(222).optional() });

export const GET = withRole<{ name: string[] }>('viewer', async (req, { params }) => {
  const name = params.name.join('/');
  const { bucket } = parseWith(query, Object.fromEntries(req.nextUrl.searchParams));
  const source = sourceOfLock(name, bucket);
  const lock = await getForConsole(source, name);
  return json(
    lock ?? { name, bucket: source.bucketId, absent: true, serverTime: serverTimeOf(storage(), source.bucket) },
  );
});
