// POST /api/locks/release – force-release exactly the version seen (operators over the lock; releasers only once it
// has expired or is gone; 403 outside the caller's grants, nothing touched); never clears a successor's lock
import { ApiError, json } from '@/lib/server/api-error';
import { readJson } from '@/lib/server/request-body';
import { withRole } from '@/lib/server/http';
import { OUTCOME_MESSAGES, UNCONFIRMED_MESSAGE } from '@/lib/server/release';
import { releaseBody as body } from '@/lib/server/api-schemas';

export const POST = withRole('releaser', async (req, { board }) => {
  const input = await readJson(req, body);
  const result = await board.release(input, input.reason);
  const recorded = { audit: result.audit };
  if (result.outcome === 'released') {
    return json({
      outcome: 'released',
      confirmed: result.confirmed !== false,
      message: result.confirmed === false ? UNCONFIRMED_MESSAGE : OUTCOME_MESSAGES.released,
      ...recorded,
      ...(result.pairs ? { pairs: result.pairs } : {}),
    });
  }
  const code = result.outcome === 'gone' ? 'gone' : result.outcome === 'not-a-lock' ? 'not_a_lock' : 'conflict';
  const message = OUTCOME_MESSAGES[result.outcome];
  throw new ApiError(
    code,
    !result.detail ? message : result.outcome === 'refreshed' ? result.detail : `${message} ${result.detail}`,
    {
      outcome: result.outcome,
      current: result.current,
      ...(result.detail ? { detail: result.detail } : {}),
      ...recorded,
    },
  );
});
