// One judgement of "the store is unavailable" for every store (the console answers 503, the CLI exits 3): what could
// not be reached, which table or grant is missing, which SDK is not installed, and the store's own words for it. The
// codes below are Node's, gRPC's and the stores' own; an error of a store's client or SDK is judged by that store
// (StoreDefinition.judgeError, in its folder), so this file loads no SDK.
import { STORES, type StoreErrorJudgement } from './stores';

/** Network codes (HPE_…: Node's HTTP parser met a server that does not speak HTTP on the endpoint's port). */
const NETWORK = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|57P01|08006|08001|HPE_[A-Z_]+)$/;
/**
 * etcd3's requests that reached no server, which carry no code: gRPC's UNAVAILABLE and DEADLINE_EXCEEDED, and the
 * client's circuit breaker, opened by those, refusing the next calls for a while.
 */
const GRPC_UNREACHABLE =
  /^(14 UNAVAILABLE|4 DEADLINE_EXCEEDED)\b|^Execution prevented because the circuit breaker is open/;
/** Codes the stores give their configuration errors: a missing table, region or SDK; PostgreSQL's missing grant. */
const CONFIG = /^(TABLE_MISSING|CONFIG|SDK_MISSING|42501)$/;

/** The first store's judgement of `err` as one of its own errors. */
function judgedByStore(err: unknown): StoreErrorJudgement | undefined {
  for (const store of STORES) {
    const judged = store.judgeError?.(err);
    if (judged) return judged;
  }
  return undefined;
}

/** The message for a store that cannot serve the request now, or null when `err` is something else. */
export function storeUnavailable(err: unknown): string | null {
  const code = (err as { code?: unknown })?.code;
  const message = (err as Error)?.message ?? String(err);
  if (typeof code === 'string' && CONFIG.test(code)) return message;
  if (typeof code === 'string' && NETWORK.test(code))
    // a store that already names what it could not reach ("Cannot reach Redis at …") says it once
    return /^Cannot reach /.test(message)
      ? `${message} (${code})`
      : `The lock store is unavailable (${code}): ${message}`;
  if (GRPC_UNREACHABLE.test(message)) return `The lock store is unavailable: ${message}`;
  const judged = judgedByStore(err);
  return judged && 'unavailable' in judged ? judged.unavailable : null;
}

/** Whether a store refused `err`'s request as malformed (a bad name, page token or version): the client's mistake. */
export function storeRefusedRequest(err: unknown): boolean {
  const judged = judgedByStore(err);
  return judged !== undefined && 'clientMistake' in judged;
}
