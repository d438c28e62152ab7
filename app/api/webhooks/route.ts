// GET /api/webhooks – each webhook (its host only) and its recent deliveries on this replica; POST – send a test
// message to one ({ webhook }). Operators of every lock only: the receivers and their failures are configuration, and
// deliveries name locks of every scope.
import { ApiError, json } from '@/lib/server/api-error';
import { withRole, type RouteUser } from '@/lib/server/http';
import { isEveryLock, scopeOf } from '@/lib/server/auth/access';
import { webhookTestBody } from '@/lib/server/api-schemas';
import { sendTestMessage, webhookSummaries } from '@/lib/server/notify';
import { readJson } from '@/lib/server/request-body';

export const dynamic = 'force-dynamic';

/** 403 for an operator whose grants cover only some locks. */
function assertOperatesEverything(user: RouteUser): void {
  if (!isEveryLock(scopeOf(user.access, 'operator')))
    throw new ApiError('forbidden', 'Webhooks need the operator role over every lock ("*").');
}

export const GET = withRole('operator', async (_req, { user }) => {
  assertOperatesEverything(user);
  return json(webhookSummaries(), 200, { 'cache-control': 'no-store' });
});

const testSchema = webhookTestBody;

export const POST = withRole('operator', async (req, { user }) => {
  assertOperatesEverything(user);
  const { webhook } = await readJson(req, testSchema);
  if (!sendTestMessage(webhook, user.email)) throw new ApiError('not_found', `No webhook is named ${webhook}.`);
  return json({ queued: true, webhook }, 202);
});
