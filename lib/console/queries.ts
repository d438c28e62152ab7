// Query keys, fetchers and options shared by the server prefetch and the client hooks (no server-only imports).
import type { QueryClient } from '@tanstack/react-query';
import type { ChurnSummary, MemoryOnlyTrail, TrailFault } from '@/lib/console/churn/summary';
import type { AuditRecord } from '@/lib/lock/audit/record';
import type { LockHealth, LockInfo } from '@/lib/lock/types';
import type { Verdict } from '@/lib/lock/verdict/verdict';
import type { SourceState } from '@/lib/server/listing-status';

/** One source's listing as the server reports it (a type only: lib/server/listing-status.ts has no server code). */
export type SourceStateData = SourceState;

/** One window of a query, as the route and the stream answer it (lib/server/locks.ts LocksResponse). */
export interface LocksData {
  serverTime: string;
  /** The source listed (`gs://bucket/prefix`) or "all". */
  source: string;
  bucket?: string;
  prefix?: string;
  /** The window: at most `limit` rows, filtered and sorted by the server over every lock it holds. */
  locks: LockInfo[];
  matched: number;
  total: number;
  counts: Record<LockHealth, number>;
  /** Locks by their holder's verdict over the whole selection (judged locks only), as `counts`. */
  verdicts?: Record<Verdict, number>;
  /** Objects in the source(s) that are not locks (data, unrecognised, audit events). */
  skipped: number;
  nextCursor?: string;
  /** Every source listed whole at least once. */
  complete: boolean;
  /** A first pass is still walking some source. */
  partial?: boolean;
  sources: SourceStateData[];
  /** Matching rows outside the window that are new or changed since it was sent (the stream counts them). */
  outside?: { added: number; changed: number };
}

/** The locks page's query: what the server filters, sorts and pages by (lib/server/lock-query.ts). */
export interface LocksQuery {
  q?: string;
  health?: LockHealth;
  verdict?: Verdict;
  format?: string;
  sort: string;
  order: 'asc' | 'desc';
  limit?: number;
  cursor?: string;
}

/** The query as URL parameters (with the source). */
export function locksParams(source: string, query: LocksQuery): URLSearchParams {
  const qs = new URLSearchParams({ source });
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') qs.set(k, String(v));
  return qs;
}

/** A configured source as the client sees it. */
export interface SourceOption {
  id: string;
  bucket: string;
  prefix: string;
}

export const ALL_SOURCES = 'all';

export type LockDetailData = LockInfo & { serverTime: string };

export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiClientError';
  }
}

export async function apiFetch<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, { ...init, headers: { accept: 'application/json', ...init?.headers } });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    const message = (body.error as { message?: string } | undefined)?.message ?? `Request failed with ${res.status}`;
    throw new ApiClientError(res.status, message, body);
  }
  return body as T;
}

export const POLL_INTERVAL_MS = 2_000;

export const locksQuery = (source: string, query: LocksQuery) => ({
  queryKey: ['locks', source, locksParams(source, query).toString()] as const,
  queryFn: () => apiFetch<LocksData>(`/api/locks?${locksParams(source, query)}`),
  refetchInterval: POLL_INTERVAL_MS,
  refetchIntervalInBackground: false,
});

export const lockQuery = (name: string, bucket?: string) => ({
  queryKey: ['lock', bucket ?? '', name] as const,
  queryFn: async (): Promise<LockDetailData | null> => {
    const data = await apiFetch<LockDetailData | { absent: true }>(lockPath('/api/locks', name, bucket));
    return 'absent' in data ? null : data;
  },
  refetchInterval: POLL_INTERVAL_MS,
  refetchIntervalInBackground: false,
});

/** The path segment under which a name travels as `?name=`: one with `.` or `..` segments, which URLs resolve away. */
export const NAME_IN_QUERY = '~';

function lockPath(base: string, name: string, bucket?: string): string {
  const query = bucket ? `bucket=${encodeURIComponent(bucket)}` : '';
  // a browser resolves `a/../b` (even escaped as %2E%2E) to `b`: such names go in the query, whole
  if (name.split('/').some((s) => s === '.' || s === '..'))
    return `${base}/${NAME_IN_QUERY}?name=${encodeURIComponent(name)}${query ? `&${query}` : ''}`;
  const path = `${base}/${name.split('/').map(encodeURIComponent).join('/')}`;
  return query ? `${path}?${query}` : path;
}

/** A lock's page; with its bucket, so the link stays right when several buckets are configured. */
export function lockHref(name: string, bucket?: string): string {
  return lockPath('/locks', name, bucket);
}

export const RANGES = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 } as const;
export type RangeKey = keyof typeof RANGES;

export function windowFor(range: RangeKey, now = Date.now()): { from: string; to: string } {
  // Rounded to the minute so polls and page loads share the server's short cache.
  const to = Math.ceil(now / 60_000) * 60_000;
  return { from: new Date(to - RANGES[range]).toISOString(), to: new Date(to).toISOString() };
}

/** The churn view's window: a relative range that slides with time, or fixed bounds. */
export type ChurnWindow = { range: RangeKey } | { range: 'custom'; from: string; to: string };

function auditWindow(w: ChurnWindow): { from: string; to: string } {
  // A relative range is computed when each poll runs, so "last 24h" keeps meaning the last 24 hours
  return w.range === 'custom' ? { from: w.from, to: w.to } : windowFor(w.range);
}

export const summaryQuery = (w: ChurnWindow) => ({
  queryKey: ['audit-summary', w] as const,
  queryFn: () => {
    const { from, to } = auditWindow(w);
    return apiFetch<ChurnSummary & { unreachable?: TrailFault[]; memoryOnly?: MemoryOnlyTrail[] }>(
      `/api/audit/summary?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    );
  },
  refetchInterval: 15_000,
  refetchIntervalInBackground: false,
});

export const HISTORY_PAGE = 200;

/** A lock's events of the last 7 days (sliding), newest first, `limit` of them. */
export const lockEventsQuery = (lock: string, bucket: string | undefined, limit: number) => ({
  queryKey: ['audit-lock', bucket ?? '', lock, limit] as const,
  queryFn: () => {
    const { from, to } = windowFor('7d');
    const qs = new URLSearchParams({ lock, from, to, limit: String(limit) });
    if (bucket) qs.set('bucket', bucket);
    return apiFetch<{ events: AuditRecord[]; total: number; from: string; to: string; memoryOnly?: MemoryOnlyTrail[] }>(
      `/api/audit?${qs}`,
    );
  },
  refetchInterval: 10_000,
  refetchIntervalInBackground: false,
});

/**
 * After a release (one or many): every view it changed is read again, the lists, the lock pages, the lock's holders
 * (its audit history, which would still say "held") and churn.
 */
export function refreshAfterRelease(client: Pick<QueryClient, 'invalidateQueries'>): Promise<unknown> {
  return Promise.all(
    (['locks', 'lock', 'audit-lock', 'audit-summary'] as const).map((key) =>
      client.invalidateQueries({ queryKey: [key] }),
    ),
  );
}
