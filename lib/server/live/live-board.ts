// The streams of a caller's console: the list's window and one lock, both within the grants of the user the route
// judged (and ended once those grants change). sseRoute hands it to the stream routes beside the board.
import 'server-only';
import type { LockQuery } from '../../lock/query/query';
import type { RouteUser } from '../http';
import type { Selection, Source } from '../sources';
import { lockStream } from './lock-stream';
import { oneLockStream } from './one-lock-stream';

export function liveBoardOf(user: RouteUser) {
  return {
    /** The window of the selection as it changes, within the user's grants (snapshot, changes, counts, ticks). */
    stream: (selection: Selection, query: LockQuery, o: { lastEventId: string | null; signal: AbortSignal }) =>
      lockStream(selection, query, user, o),
    /** One lock as it changes; outside the grants, streamed as absent and never watched. */
    lock: (source: Source, name: string, o: { signal: AbortSignal }) => oneLockStream(source, name, user, o),
  };
}

export type LiveBoard = ReturnType<typeof liveBoardOf>;
