// POST /api/locks/release-batch – force-release up to 100 lock generations with one reason (releasers and operators;
// a lock outside the caller's grants refuses the whole batch with 403 before anything is touched). Each lock
// is its own conditional DELETE of the generation and metageneration seen in the preview, audited before it runs;
// a lock that changed since the preview is never deleted. Answers 200 with one result per lock, in request order.
import { z } from 'zod';
import { AuditWriteError, LockOptionsError, ReleaseIncompleteError } from '@/lib/lock';
import { ApiError, json } from '@/lib/server/api-error';
import { readJson } from '@/lib/server/request-body';
import { plural } from '@/lib/text/plural';
import { withRole } from '@/lib/server/http';
import { releaseBatchBody } from '@/lib/server/api-schemas';
import type { Board } from '@/lib/server/board';
import { sourceOfLock, sources } from '@/lib/server/sources';
import {
  MAX_BATCH,
  OUTCOME_MESSAGES,
  seenLock,
  type ConsoleReleaseResult,
  UNCONFIRMED_MESSAGE,
} from '@/lib/server/release';

/** Locks released at once; each is three or four requests, so a batch of 100 takes a few seconds. */
const CONCURRENCY = 4;

/** The body a full batch needs: each lock's name, source and version at their longest (the fields' own caps). */
const BATCH_BODY_LIMIT = MAX_BATCH * 4096 + 1024;

// Each lock is validated alone: one malformed entry is refused by itself, never the whole batch
const body = releaseBatchBody;

type BatchResult = Partial<z.output<typeof seenLock>> & {
  outcome: ConsoleReleaseResult['outcome'] | 'not-attempted' | 'error';
  message: string;
  confirmed?: boolean;
  current?: ConsoleReleaseResult['current'];
  audit?: ConsoleReleaseResult['audit'];
};

export const POST = withRole('releaser', async (req, { board }) => {
  const input = await readJson(req, body, BATCH_BODY_LIMIT);
  const results: BatchResult[] = new Array(input.locks.length);
  const seenKeys = new Set<string>();
  const checked = input.locks.map((raw) => {
    const parsed = seenLock.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return { problem: `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}` };
    }
    const key = `${parsed.data.source ?? parsed.data.bucket ?? ''}\u0000${parsed.data.name}`;
    if (seenKeys.has(key)) return { problem: 'This lock is listed twice in the batch; it is released once.' };
    seenKeys.add(key);
    return { seen: parsed.data };
  });
  assertAllInScope(checked, board);
  let next = 0;
  const worker = async () => {
    while (next < input.locks.length) {
      const i = next++;
      const { seen, problem } = checked[i]!;
      if (!seen) {
        const raw = input.locks[i] as { name?: unknown } | null;
        const name = typeof raw?.name === 'string' ? raw.name.slice(0, 1024) : undefined;
        results[i] = { ...(name ? { name } : {}), outcome: 'not-attempted', message: problem! };
        continue;
      }
      try {
        const r = await board.release(seen, input.reason);
        results[i] = {
          ...seen,
          outcome: r.outcome,
          message: r.confirmed === false ? UNCONFIRMED_MESSAGE : OUTCOME_MESSAGES[r.outcome],
          ...(r.confirmed !== undefined ? { confirmed: r.confirmed } : {}),
          ...(r.current ? { current: r.current } : {}),
          ...(r.audit ? { audit: r.audit } : {}),
        };
      } catch (err) {
        const notAttempted =
          err instanceof AuditWriteError || err instanceof ApiError || err instanceof LockOptionsError;
        results[i] = {
          ...seen,
          outcome: notAttempted ? 'not-attempted' : 'error',
          message:
            notAttempted || err instanceof ReleaseIncompleteError
              ? (err as Error).message
              : `The store failed: ${(err as Error).message}. The lock may be unchanged; review it again.`,
        };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, input.locks.length) }, worker));
  const count = (o: string) => results.filter((r) => r.outcome === o).length;
  return json({
    released: count('released'),
    refused: results.length - count('released'),
    results,
  });
});

/** 403 naming every lock of the batch outside the caller's grants: nothing is released then. */
function assertAllInScope(checked: { seen?: z.output<typeof seenLock> }[], board: Board): void {
  const outside: string[] = [];
  for (const { seen } of checked) {
    if (!seen) continue;
    try {
      const named = seen.source === undefined ? undefined : sources().find((s) => s.id === seen.source);
      board.assertMayRelease(sourceOfLock(seen.name, named?.bucketId ?? seen.bucket), seen.name);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'forbidden') outside.push(String(err.extra.address));
    }
  }
  if (outside.length)
    throw new ApiError(
      'forbidden',
      `Nothing was released: ${plural('lock', outside.length)} ${outside.length === 1 ? 'lies' : 'lie'} outside your grants (${outside.slice(0, 5).join(', ')}${outside.length > 5 ? ', …' : ''}).`,
      { outside },
    );
}
