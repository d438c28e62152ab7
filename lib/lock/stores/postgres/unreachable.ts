// PostgreSQL's own words for a connection that fails under a query: pg rejects with its driver's bare words
// ("connect ECONNREFUSED 127.0.0.1:5432", "Connection terminated unexpectedly"), which the console showed as "The
// lock store is unavailable". Such errors become "Cannot reach PostgreSQL at …" with a network code (store-errors.ts:
// the console's unreachable note, the CLI's exit 3); an error the server answered (a SQLSTATE) is left as it is.
import type { Queryable } from './tables';

/** Network codes, and the SQLSTATEs of a server going away (admin shutdown, crash, connection failure). */
const NETWORK =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE|57P01|57P02|57P03|08000|08001|08003|08006)$/;
/** pg's own connection failures, which carry no code. */
const DRIVER =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** `err` in PostgreSQL's words when the connection failed; `err` itself otherwise. */
function pgUnreachable(err: unknown, source: string): unknown {
  if (!(err instanceof Error)) return err;
  const code = (err as { code?: unknown }).code;
  const network = typeof code === 'string' && NETWORK.test(code) ? code : undefined;
  if (!network && !DRIVER.test(err.message)) return err;
  return Object.assign(new Error(`Cannot reach PostgreSQL at ${source}: ${err.message || code}`, { cause: err }), {
    code: network ?? 'ECONNRESET',
  });
}

/** The console's pool, its failed connections in PostgreSQL's words. */
export function speaking(client: Queryable, source: string): Queryable {
  return {
    query: <R = Record<string, unknown>>(text: string, values?: unknown[]) =>
      client.query<R>(text, values).catch((err: unknown) => {
        throw pgUnreachable(err, source);
      }),
  };
}
