// POST /api/gcs-events – Cloud Storage notifications pushed by a Pub/Sub push subscription (no session: the push is
// authenticated by its OIDC token, or a shared token for the emulator). 401 unauthenticated, 400 malformed (Pub/Sub
// must not redeliver it), 5xx only when storage fails (Pub/Sub redelivers), 200 otherwise, with what was written.
import type { NextRequest } from 'next/server';
import { errorResponse, json } from '@/lib/server/api-error';
import { readJson } from '@/lib/server/request-body';
import { authenticatePush, observe, parsePush } from '@/lib/server/live/gcs-events';
import { z } from 'zod';

export const dynamic = 'force-dynamic';

export async function POST(req: NextRequest): Promise<Response> {
  try {
    await authenticatePush(req);
    const raw = await readJson(req, z.unknown());
    return json(await observe(parsePush(raw)));
  } catch (err) {
    return errorResponse(err);
  }
}
