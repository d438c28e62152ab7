// Holds from the console (POST /api/locks/hold, POST /api/locks/unhold, GET /api/locks/hold): the CLI's own
// placeHold / endHold (lib/lock/hold.ts) with the same limits, refusals and trail records (hold-placed, hold-ended),
// for an operator over the lock only (403 for anyone else, nothing read or written).
import 'server-only';
import { z } from 'zod';
import { endHold, HoldRefusedError, placeHold } from '@/lib/lock/hold';
import { definitionByKind } from '@/lib/lock/stores';
import { lockAddress } from '@/lib/lock/address';
import { OUTCOME_MESSAGES } from '@/lib/lock/outcomes';
import { parseDurationMs } from '@/lib/text/format';
import { ApiError } from './api-error';
import { invalidateOpenSlices } from './audit/events';
import { releaseRight, type Access } from './auth/access';
import { changedOnThisReplica } from './live/watch';
import { seenLock, sourceOf } from './release';
import { consoleOpenOptions } from './stores';
import type { Source } from './sources';

const where = seenLock.pick({ name: true, source: true, bucket: true });

/** POST /api/locks/hold: the lock, why, for how long (a duration as the CLI's --for takes it), which format. */
export const holdBody = where.extend({
  reason: z.string().max(20_000),
  for: z.string().max(64),
  format: z.string().max(64).optional(),
  /** A Kubernetes Lease: the operator acknowledges that holding it stops every candidate from leading. */
  ackLeaderElection: z.boolean().optional(),
});

/** POST /api/locks/unhold: the hold as seen (its version: a hold replaced since is refused, nothing deleted). */
export const unholdBody = where.extend({ version: seenLock.shape.version });

/** GET /api/locks/hold: the formats the lock's store can hold it in. */
export const holdFormatsQuery = where.pick({ name: true, source: true, bucket: true });

/** The lock's source, once the caller is an operator over the lock (403 otherwise) and the source can be written. */
function holdable(access: Access, at: z.output<typeof where>): Source {
  const source = sourceOf(at);
  const address = lockAddress(source, at.name);
  if (releaseRight(access, address) !== 'any')
    throw new ApiError(
      'forbidden',
      `You may not hold or end a hold on ${address}: this needs the operator role over it, and none of your grants gives it. Ask an administrator for an operator grant in the access file (LOCKBOARD_ACCESS_FILE).`,
      { address },
    );
  if (source.readOnly)
    throw new ApiError('conflict', `${source.id} is read-only: ${source.readOnly} Nothing was written.`);
  return source;
}

/** A refused hold or end (held, replaced, no hold) is a 409 in the library's words. */
async function refusedAs409<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof HoldRefusedError) throw new ApiError('conflict', err.message);
    throw err;
  } finally {
    invalidateOpenSlices();
  }
}

/** Places a hold as `access.actor`; the hold as the store now shows it. */
export async function holdAs(access: Access, input: z.output<typeof holdBody>) {
  const source = holdable(access, input);
  const forMs = parseDurationMs(input.for);
  if (forMs === null)
    throw new ApiError(
      'bad_request',
      `"for" must be a duration like 30m, 2h or 3d, at most 366 days; got ${JSON.stringify(input.for.slice(0, 64))}.`,
    );
  const request = {
    name: input.name,
    operator: access.actor,
    reason: input.reason,
    forMs,
    ...(input.format ? { format: input.format } : {}),
    acks: input.ackLeaderElection ? ['ack-leader-election'] : [],
  };
  const { plan, view, auditError } = await refusedAs409(() => placeHold(source, consoleOpenOptions(), request));
  changedOnThisReplica(source, [input.name]);
  return {
    outcome: 'held' as const,
    until: new Date(plan.untilMs).toISOString(),
    format: plan.format.id,
    endsItself: plan.format.endsItself,
    ...(view ? { version: view.version } : {}),
    ...(auditError ? { auditError } : {}),
  };
}

/** Ends exactly the hold seen as `access.actor`: 409 when something else is there, 410 when nothing is. */
export async function unholdAs(access: Access, input: z.output<typeof unholdBody>) {
  const source = holdable(access, input);
  const request = { name: input.name, operator: access.actor, ...(input.version ? { version: input.version } : {}) };
  const { result } = await refusedAs409(() => endHold(source, consoleOpenOptions(), request));
  changedOnThisReplica(source, [input.name]);
  if (!result) throw new ApiError('gone', OUTCOME_MESSAGES.gone, { outcome: 'gone' });
  if (result.outcome !== 'released')
    throw new ApiError('conflict', `${OUTCOME_MESSAGES[result.outcome]}${result.detail ? ` ${result.detail}` : ''}`, {
      outcome: result.outcome,
    });
  return { outcome: 'ended' as const };
}

/** The formats the lock's store can hold it in (the first that fits the name is the default), for the dialog. */
export async function holdFormatsFor(access: Access, at: z.output<typeof holdFormatsQuery>) {
  const source = holdable(access, at);
  const definition = definitionByKind(source.kind);
  if (!definition.hold) return { formats: [], none: `${definition.label} sources cannot be held by Lockboard yet.` };
  const { formats } = await definition.hold();
  const fitting = formats.find((f) => f.fits(at.name))?.id;
  return {
    formats: formats.map((f) => ({
      id: f.id,
      label: f.label,
      maxWords: f.maxWords,
      endsItself: f.endsItself,
      ...(f.ack ? { ack: f.ack.words } : {}),
      ...(f.session ? { session: f.session } : {}),
      ...(f.id === fitting ? { fits: true } : {}),
    })),
  };
}
