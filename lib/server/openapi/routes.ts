// Every route under app/api as the OpenAPI document describes it: its method, the schemas it validates its query and
// body with (the routes' own zod schemas), who may call it, and its answers. A test walks app/api against this table.
import { z } from 'zod';
import {
  auditPageQuery,
  discoverBody,
  lockGetQuery,
  lockStreamQuery,
  releaseBatchBody,
  releaseBody,
  webhookTestBody,
} from '../api-schemas';
import { windowSchema } from '../audit/events';
import { holdBody, holdFormatsQuery, unholdBody } from '../hold';
import { lockQuerySchema } from '../lock-query';

type Access = 'none' | 'viewer' | 'releaser' | 'operator' | 'metrics' | 'push' | 'next-auth';

export interface RouteDoc {
  path: string;
  method: 'get' | 'post';
  summary: string;
  access: Access;
  query?: z.ZodObject;
  pathParams?: Record<string, string>;
  body?: z.ZodType;
  /** Status → what it means (the 200's media type when not JSON). */
  answers: Record<number, string>;
  produces?: string;
}

const SCOPED = "Only locks within the caller's grants (LOCKBOARD_ACCESS_FILE).";
const AUTH = { 401: 'No session and no valid bearer token.', 403: 'No grant gives the role this needs.' };
const BAD = { 400: 'A parameter is malformed (the message names it).' };

export const ROUTES: RouteDoc[] = [
  {
    path: '/api/health',
    method: 'get',
    summary:
      'Liveness for load balancers: "degraded" while the access file is deleted or cannot be used (its last good grants kept for LOCKBOARD_ACCESS_GRACE, then withdrawn).',
    access: 'none',
    answers: { 200: '{ status: "ok" | "degraded" }' },
  },
  {
    path: '/api/openapi.json',
    method: 'get',
    summary: 'This document.',
    access: 'none',
    answers: { 200: 'OpenAPI 3.1' },
  },
  {
    path: '/api/locks',
    method: 'get',
    summary: `A window of the locks of a source (or all), filtered, sorted and paged, with counts by health and by verdict. ${SCOPED}`,
    access: 'viewer',
    query: lockQuerySchema,
    answers: {
      200: 'The window: locks (each with its address), matched, total, counts, verdicts, sources, nextCursor.',
      ...BAD,
      ...AUTH,
      503: 'Every source failed.',
    },
  },
  {
    path: '/api/locks/{name}',
    method: 'get',
    summary: `One lock's view, or { absent: true } where there is none, or it lies outside the caller's grants. ${SCOPED}`,
    access: 'viewer',
    pathParams: { name: "The lock's name (its slashes as path segments)." },
    query: lockGetQuery,
    answers: { 200: 'The lock with serverTime, or { name, bucket, absent: true, serverTime }.', ...BAD, ...AUTH },
  },
  {
    path: '/api/locks/release',
    method: 'post',
    summary: 'Force-release exactly the version seen (operator; releaser only for an expired or gone lock).',
    access: 'releaser',
    body: releaseBody,
    answers: {
      200: '{ outcome: "released", confirmed, message, audit }',
      ...BAD,
      ...AUTH,
      409: 'The lock changed since it was seen.',
      410: 'Nothing is there any more.',
      422: 'Not a lock.',
      503: 'The audit trail or the store cannot be written.',
    },
  },
  {
    path: '/api/locks/release-batch',
    method: 'post',
    summary:
      'Force-release up to 100 locks, one result per lock (each with ifGone: released only if its holder is judged gone then); 403 before anything when one lies outside the grants.',
    access: 'releaser',
    body: releaseBatchBody,
    answers: { 200: '{ released, refused, results }', ...BAD, ...AUTH },
  },
  {
    path: '/api/locks/hold',
    method: 'post',
    summary:
      "Hold a lock on purpose, with a reason and an end, in its contenders' own format (as `lockboard hold`; operator over the lock). Recorded as hold-placed.",
    access: 'operator',
    body: holdBody,
    answers: {
      200: '{ outcome: "held", until, format, endsItself, version }',
      400: "The request or the format's limits (reason at most 500 characters, no control characters, the longest hold the format can express): the message names it; nothing written.",
      ...AUTH,
      409: 'The lock is held: the message names its holder; nothing written.',
      503: 'The store cannot be reached.',
    },
  },
  {
    path: '/api/locks/hold',
    method: 'get',
    summary: "The formats the lock's store can hold it in (the one that fits the name marked), for the hold dialog.",
    access: 'operator',
    query: holdFormatsQuery,
    answers: {
      200: '{ formats: [{ id, label, maxWords, endsItself, ack?, session?, fits? }], none? }',
      ...BAD,
      ...AUTH,
    },
  },
  {
    path: '/api/locks/unhold',
    method: 'post',
    summary: 'End exactly the hold seen (as `lockboard unhold`; operator over the lock). Recorded as hold-ended.',
    access: 'operator',
    body: unholdBody,
    answers: {
      200: '{ outcome: "ended" }',
      ...BAD,
      ...AUTH,
      409: 'What is there is no hold, or the hold was replaced since it was seen: nothing deleted.',
      410: 'Nothing is there any more.',
    },
  },
  {
    path: '/api/locks/stream',
    method: 'get',
    summary: `Server-Sent Events of a window of locks: snapshot, change, counts, tick, reset. ${SCOPED}`,
    access: 'viewer',
    query: lockQuerySchema,
    produces: 'text/event-stream',
    answers: { 200: 'An event stream.', ...BAD, ...AUTH },
  },
  {
    path: '/api/lock-stream',
    method: 'get',
    summary: `Server-Sent Events of one lock as it changes (absent outside the grants). ${SCOPED}`,
    access: 'viewer',
    query: lockStreamQuery,
    produces: 'text/event-stream',
    answers: { 200: 'An event stream of `lock` and `tick` events.', ...BAD, ...AUTH },
  },
  {
    path: '/api/audit',
    method: 'get',
    summary: `Audit events of a window (at most 31 days), newest first, paged; format=csv exports them. ${SCOPED}`,
    access: 'viewer',
    query: windowSchema.extend(auditPageQuery.shape),
    answers: {
      200: '{ from, to, total, events, unreachable, memoryOnly, nextCursor } or text/csv',
      ...BAD,
      ...AUTH,
      503: 'No trail could be read.',
    },
  },
  {
    path: '/api/audit/summary',
    method: 'get',
    summary: `Churn of a window: counts per hour, top locks, hold times, takeovers, force-releases. ${SCOPED}`,
    access: 'viewer',
    query: windowSchema,
    answers: {
      200: 'The summary, the unreachable trails and those kept in memory only.',
      ...BAD,
      ...AUTH,
      503: 'No trail could be read.',
    },
  },
  {
    path: '/api/metrics',
    method: 'get',
    summary:
      'Prometheus metrics: LOCKBOARD_METRICS_TOKEN (every lock, and the process-wide series) or an API token (the lock series within its grants only; the process-wide series only for a token over every lock).',
    access: 'metrics',
    produces: 'text/plain',
    answers: { 200: 'The Prometheus text format.', 401: 'No valid bearer token.', 404: 'Metrics are disabled.' },
  },
  {
    path: '/api/webhooks',
    method: 'get',
    summary: 'Each webhook (its host only) and its recent deliveries on this replica (operators).',
    access: 'operator',
    answers: { 200: 'The webhooks and their deliveries.', ...AUTH },
  },
  {
    path: '/api/webhooks',
    method: 'post',
    summary: 'Send a test message to one webhook (operators).',
    access: 'operator',
    body: webhookTestBody,
    answers: { 200: 'What the receiver answered.', ...BAD, ...AUTH },
  },
  {
    path: '/api/sources/discover',
    method: 'post',
    summary:
      "Discover the stores of the configured sources as `lockboard discover` does (read-only, the CLI's bounds per target): sources found that none configured watches (operators of every lock).",
    access: 'operator',
    body: discoverBody,
    produces: 'application/x-ndjson',
    answers: {
      200: 'NDJSON: a { progress } line after each page, then { report } (or { error }).',
      ...BAD,
      ...AUTH,
      409: 'A discovery is already running on this server.',
    },
  },
  {
    path: '/api/gcs-events',
    method: 'post',
    summary: 'Cloud Storage notifications pushed by a Pub/Sub push subscription.',
    access: 'push',
    body: z.unknown(),
    answers: { 200: 'What was written.', 400: 'A malformed push (not redelivered).', 401: 'An unauthenticated push.' },
  },
  ...(['get', 'post'] as const).map((method): RouteDoc => ({
    path: '/api/auth/{nextauth}',
    method,
    summary: "next-auth sign-in, callback, session and sign-out endpoints (for the console's pages).",
    access: 'next-auth',
    pathParams: { nextauth: 'The next-auth action (signin, callback/<provider>, session, csrf, signout…).' },
    answers: { 200: "next-auth's answer.", 302: 'A redirect of the sign-in flow.' },
  })),
];
