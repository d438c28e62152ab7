// The one query of the locks route, the stream and the page (`?source&q&health&verdict&format&sort&order&cursor&limit`),
// validated in one place: a bad value is a 400 that names the parameter.
import 'server-only';
import { z } from 'zod';
import { LOCK_HEALTHS } from '@/lib/lock';
import { formatsMeant } from '../lock/stores';
import { VERDICTS } from '../lock/verdict/verdict';
import { ApiError } from './api-error';
import { parseWith } from './request-body';
import { DEFAULT_LIMIT, MAX_LIMIT, SORT_KEYS, type IndexSortKey, type LockQuery } from '../lock/query/query';

export const lockQuerySchema = z.object({
  source: z.string().max(1100).optional(),
  prefix: z.string().max(1024).optional(),
  q: z.string().max(256).optional(),
  health: z.enum(LOCK_HEALTHS).optional(),
  verdict: z.enum(VERDICTS).optional(),
  format: z.string().max(64).optional(),
  sort: z.enum(SORT_KEYS as [IndexSortKey, ...IndexSortKey[]]).optional(),
  /** `dir` is the page address's name for it. */
  order: z.enum(['asc', 'desc']).optional(),
  dir: z.enum(['asc', 'desc']).optional(),
  cursor: z.string().max(4096).optional(),
  limit: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_LIMIT, { message: `at most ${MAX_LIMIT} locks a window` })
    .optional(),
});

export function lockQueryOf(raw: Record<string, string | undefined>): {
  source?: string;
  prefix?: string;
  query: LockQuery;
} {
  if (raw.pageToken !== undefined)
    throw new ApiError(
      'bad_request',
      'pageToken: windows are paged by cursor now (the nextCursor of the last window).',
    );
  const p = parseWith(lockQuerySchema, raw);
  const q = p.q?.trim();
  return {
    source: p.source,
    prefix: p.prefix,
    query: {
      ...(q ? { q } : {}),
      ...(p.health ? { health: p.health } : {}),
      ...(p.verdict ? { verdict: p.verdict } : {}),
      ...(p.format ? { format: p.format, formatIds: formatsMeant(p.format) } : {}),
      sort: p.sort ?? 'name',
      order: p.order ?? p.dir ?? 'asc',
      ...(p.cursor ? { cursor: p.cursor } : {}),
      limit: p.limit ?? DEFAULT_LIMIT,
    },
  };
}

/** A page's search params as the query reads them (the first value of each). */
export function firstValues(params: Record<string, string | string[] | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])));
}
