// Redis's own words for a connection that fails under a command: node-redis rejects with errors whose message may be
// empty (a TimeoutError while it reconnects), so a stopped server would read as "Error". Such errors become "Cannot
// reach Redis at …" with a network code (store-errors.ts: the console shows the source unreachable, the CLI exits 3);
// a reply from the server (ErrorReply: WRONGTYPE, NOSCRIPT…) and anything else is left as it is.

/** node-redis's connection errors (by class name: the classes live in @redis/client, loaded lazily) and their code. */
const CONNECTION: Record<string, { code: string; why: string }> = {
  SocketClosedUnexpectedlyError: { code: 'ECONNRESET', why: 'the connection closed unexpectedly' },
  ClientClosedError: { code: 'ECONNRESET', why: 'the connection is closed' },
  ClientOfflineError: { code: 'ECONNRESET', why: 'the client is offline, reconnecting' },
  DisconnectsClientError: { code: 'ECONNRESET', why: 'the client disconnected' },
  ReconnectStrategyError: { code: 'ECONNREFUSED', why: 'reconnecting failed' },
  ConnectionTimeoutError: { code: 'ETIMEDOUT', why: 'connecting timed out' },
  SocketTimeoutError: { code: 'ETIMEDOUT', why: 'the connection timed out' },
  TimeoutError: { code: 'ETIMEDOUT', why: 'no answer in time (the connection is down, reconnecting)' },
};
const NETWORK = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE)$/;

/**
 * `err` in Redis's words when the connection failed; `err` itself otherwise. `down`: the client was not ready when
 * the command failed (the surest sign: a bundled build renames node-redis's classes, so their names may not match).
 */
export function redisUnreachable(err: unknown, source?: string, down = false): unknown {
  if (!(err instanceof Error)) return err;
  const known = CONNECTION[err.constructor.name];
  const code = (err as { code?: unknown }).code;
  const network = typeof code === 'string' && NETWORK.test(code) ? code : undefined;
  if (!known && !network && !down) return err;
  const why = known?.why ?? (err.message || 'the connection is down (reconnecting)');
  const detail = err.message && err.message !== why ? ` (${err.message})` : '';
  return Object.assign(
    new Error(`Cannot reach Redis${source ? ` at ${source}` : ''}: ${why}${detail}`, { cause: err }),
    {
      code: network ?? known?.code ?? 'ECONNRESET',
    },
  );
}
