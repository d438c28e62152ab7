// ZooKeeper's own words for a request no server answered: node-zookeeper-client fails it with CONNECTION_LOSS,
// OPERATION_TIMEOUT or SESSION_EXPIRED ("Exception: CONNECTION_LOSS[-4]"), which read as a store error of no kind.
// Those become "Cannot reach zookeeper://… : …" with a network code (store-errors.ts: the console shows the source
// unreachable, the CLI exits 3); an answer from the server (NO_NODE, NO_AUTH, BAD_VERSION…) is left as it is.

/** The client's codes for a request that got no answer, and what each means. */
const LOST: Record<number, string> = {
  [-4]: 'the connection was lost (CONNECTION_LOSS)',
  [-7]: 'the request timed out (OPERATION_TIMEOUT)',
  [-112]: 'its session expired (SESSION_EXPIRED)',
};

/** The error of a request made while the client has no connection (kept-client.ts fails it at once). */
export function notConnected(display: string, why: string, code = 'ECONNRESET'): Error {
  return Object.assign(new Error(`Cannot reach ${display}: ${why}`), { code });
}

/** `err` in ZooKeeper's words when no server answered; `err` itself otherwise. */
export function zkUnreachable(err: unknown, display: string): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'number' || !(code in LOST)) return err;
  return Object.assign(new Error(`Cannot reach ${display}: ${LOST[code]}`, { cause: err }), {
    code: 'ECONNRESET',
    zkCode: code,
  });
}
