// DynamoDB's own words for a request that could not reach the service: the SDK rejects with Node's bare words
// ("connect ECONNREFUSED 127.0.0.1:8000"), which the console showed as "The lock store is unavailable". Such errors
// become "Cannot reach DynamoDB for dynamodb://TABLE (endpoint …)" with their network code (store-errors.ts: the
// console's unreachable note, the CLI's exit 3); an answer from the service (a condition failed, a missing table,
// throttling) is left as it is.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** Network codes, and Node's HTTP parser's (HPE_…): what answered on the endpoint's port does not speak HTTP. */
const NETWORK = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE|EAI_AGAIN|HPE_[A-Z_]+)$/;

/** `err` in DynamoDB's words when the request reached no server; `err` itself otherwise. */
function dynamoUnreachable(err: unknown, source: string, endpoint?: string): unknown {
  if (!(err instanceof Error)) return err;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string' || !NETWORK.test(code)) return err;
  const where = endpoint ? ` (endpoint ${endpoint})` : '';
  return Object.assign(
    new Error(`Cannot reach DynamoDB for ${source}${where}: ${err.message || code}`, { cause: err }),
    {
      code,
    },
  );
}

/** Every request of `client` reports an unreachable service in DynamoDB's words. */
export function speakUnreachable(client: DynamoDBClient, source: string, endpoint?: string): DynamoDBClient {
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (err) {
        throw dynamoUnreachable(err, source, endpoint);
      }
    },
    { step: 'initialize', name: 'lockboardUnreachable' },
  );
  return client;
}
