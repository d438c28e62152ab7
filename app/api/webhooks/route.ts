// GET /api/webhooks – each webhook (its host only) and its recent deliveries on this replica; POST – send a test
// message to one ({ webhook }). Operators only: the receivers and their failures are configuration.
import { z } from 'zod';
import { ApiError, json } from '@/lib/server/api-error';
import { withRole } from '@/lib/server/http';
import { sendTestMessage, webhookSummaries } from '@/lib/server/notify';
import { readJson } from '@/lib/server/request-body';

export const dynamic = 'force-dynamic';

export const GET = withRole('operator', async () => json(webhookSummaries(), 200, { 'cache-control': 'no-store' }));

const testSchema = z.object({ webhook: z.string().min(1).max(64) });

export const POST = withRole('operator', async (req, { user }) => {
  const { webhook } = await readJson(req, testSchema);
  if (!sendTestMessage(webhook, user.email)) throw new ApiError('not_found', `No webhook is named ${webhook}.`);
  return json({ queued: true, webhook }, 202);
});
