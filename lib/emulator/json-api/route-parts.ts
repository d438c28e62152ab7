// What every route of the emulated GCS JSON API shares: the reply and context shapes, path decoding, the `fields`
// projection, preconditions from the query, an object resource's writable fields, and a 405.
import type { IncomingMessage } from 'node:http';
import { GcsError, invalid } from '../errors';
import { intParam, parseFields, projectFields } from './http';
import type { Notifications } from './notifications';
import type { ObjectStore } from '../objects/objects';
import type { ObjectFields, Preconditions } from '../types';

export interface Reply {
  status: number;
  json?: unknown;
  body?: Buffer;
  headers?: Record<string, string>;
}

export interface RouteContext {
  store: ObjectStore;
  now: number;
  baseUrl: string;
  query: URLSearchParams;
  body: Buffer;
  req: IncomingMessage;
  /** Throws 429 when the per-object write-rate limit is on and exceeded. */
  checkWriteRate(bucket: string, name: string): void;
  uploads: Map<string, PendingUpload>;
  notifications: Notifications;
}

interface PendingUpload {
  bucket: string;
  name: string;
  fields: ObjectFields;
  pre: Preconditions;
  chunks: Buffer[];
  received: number;
}

export function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalid(`Malformed percent-encoding in path segment ${JSON.stringify(segment)}`);
  }
}

export const json = (value: unknown, ctx: RouteContext, status = 200): Reply => {
  const fields = ctx.query.get('fields');
  return { status, json: fields ? projectFields(value, parseFields(fields)) : value };
};

export function preconditions(q: URLSearchParams): Preconditions {
  return {
    ifGenerationMatch: intParam(q, 'ifGenerationMatch'),
    ifGenerationNotMatch: intParam(q, 'ifGenerationNotMatch'),
    ifMetagenerationMatch: intParam(q, 'ifMetagenerationMatch'),
    ifMetagenerationNotMatch: intParam(q, 'ifMetagenerationNotMatch'),
  };
}

export function objectFields(body: Record<string, unknown>): ObjectFields {
  const fields: ObjectFields = {};
  const strOrNull = (key: string): string | null | undefined => {
    const v = body[key];
    if (v === undefined || v === null || typeof v === 'string') return v;
    throw invalid(`Invalid value for ${key}: expected a string`);
  };
  const contentType = strOrNull('contentType');
  if (typeof contentType === 'string') fields.contentType = contentType;
  fields.cacheControl = strOrNull('cacheControl');
  fields.contentEncoding = strOrNull('contentEncoding');
  fields.contentDisposition = strOrNull('contentDisposition');
  fields.contentLanguage = strOrNull('contentLanguage');
  for (const key of ['temporaryHold', 'eventBasedHold'] as const) {
    const v = body[key];
    if (v !== undefined && v !== null && typeof v !== 'boolean')
      throw invalid(`Invalid value for ${key}: expected a boolean`);
    if (v !== undefined) fields[key] = v;
  }
  const metadata = body.metadata;
  if (metadata !== undefined && metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata))) {
    throw invalid('Invalid value for metadata: expected an object of strings');
  }
  if (metadata !== undefined) {
    for (const [k, v] of Object.entries(metadata ?? {})) {
      if (v !== null && typeof v === 'object') throw invalid(`Invalid value for metadata.${k}: expected a string`);
    }
    fields.metadata = metadata as Record<string, string | null> | null;
  }
  return fields;
}

export const methodNotAllowed = (method: string): GcsError =>
  new GcsError(405, 'methodNotAllowed', `Method ${method} is not allowed on this resource`);
