// One error type for the API, one map from code to status, and one function that turns any error into
// `{ error: { code, message } }` (dub's lib/api/errors.ts is the model).
import { AuditWriteError, LockOptionsError, ReleaseIncompleteError } from '@/lib/lock/errors';
import { storeRefusedRequest, storeUnavailable } from '@/lib/lock/store-errors';
import { branded } from '@/lib/lock/support/branded';

const STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  not_a_lock: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal: 500,
  release_incomplete: 502,
  storage_unavailable: 503,
  audit_unavailable: 503,
} as const;
type ApiErrorCode = keyof typeof STATUS;

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } });
}

export function errorResponse(err: unknown): Response {
  if (err instanceof ApiError) {
    const retry: Record<string, string> = err.code === 'storage_unavailable' ? { 'retry-after': '2' } : {};
    return json({ error: { code: err.code, message: err.message }, ...err.extra }, STATUS[err.code], retry);
  }
  // A client mistake the lock core or a store rejected (a bad name, page token or generation): 400, not 5xx.
  if (err instanceof LockOptionsError || storeRefusedRequest(err)) {
    return json({ error: { code: 'bad_request', message: (err as Error).message } }, 400);
  }
  if (err instanceof AuditWriteError) {
    return json({ error: { code: 'audit_unavailable', message: err.message }, deleted: false }, 503, {
      'retry-after': '5',
    });
  }
  // A release the store left half done (Azure: lock info off, lease still held): the message says in what state
  if (err instanceof ReleaseIncompleteError) {
    return json({ error: { code: 'release_incomplete', message: err.message }, outcome: 'failed' }, 502);
  }
  // A store that cannot serve the request now (unreachable, a missing table or grant, throttled): one judgement
  const unavailable = storeUnavailable(err);
  if (unavailable !== null) {
    const message = `${unavailable.replace(/\.?$/, '.')} Retry in a few seconds.`;
    return json({ error: { code: 'storage_unavailable', message } }, 503, { 'retry-after': '2' });
  }
  console.error('[lockboard] unexpected error in an API route:', err);
  return json({ error: { code: 'internal', message: 'Internal error; the details are in the server log.' } }, 500);
}

branded(ApiError, 'ApiError');
