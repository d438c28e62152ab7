// POST /api/locks/unhold – ends exactly the hold seen (the CLI's `lockboard unhold`): operators over the lock only;
// a hold replaced since, or anything that is no hold, is a 409 and nothing is deleted; nothing there, 410.
import { json } from '@/lib/server/api-error';
import { readJson } from '@/lib/server/request-body';
import { withRole } from '@/lib/server/http';
import { unholdBody } from '@/lib/server/hold';

export const dynamic = 'force-dynamic';

export const POST = withRole('operator', async (req, { board }) =>
  json(await board.unhold(await readJson(req, unholdBody))),
);
