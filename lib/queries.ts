// Query keys, fetchers and options shared by the server prefetch and the client hooks (no server-only imports).
import type { ChurnSummary } from '@/lib/churn';
import type { AuditRecord } from '@/lib/lock/audit-read';
import type { LockInfo } from '@/lib/lock/types';

export interface LocksData {
  serverTime: string;
  prefix: string;
  locks: LockInfo[];
  /** Objects under the prefix that are not locks (data or unrecognised). */
  skipped: number;
  nextPageToken?: string;
}

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

export const locksQuery = (prefix: string) => ({
  queryKey: ['locks', prefix] as const,
  queryFn: () => apiFetch<LocksData>(`/api/locks?prefix=${encodeURIComponent(prefix)}`),
  refetchInterval: POLL_INTERVAL_MS,
  refetchIntervalInBackground: false,
});

export const lockQuery = (name: string) => ({
  queryKey: ['lock', name] as const,
  queryFn: async (): Promise<LockDetailData | null> => {
    try {
      return await apiFetch<LockDetailData>(`/api/locks/${name.split('/').map(encodeURIComponent).join('/')}`);
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 404) return null;
      throw err;
    }
  },
  refetchInterval: POLL_INTERVAL_MS,
  refetchIntervalInBackground: false,
});

export function lockHref(name: string): string {
  return `/locks/${name.split('/').map(encodeURIComponent).join('/')}`;
}

export const RANGES = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 } as const;
export type RangeKey = keyof typeof RANGES;

export function windowFor(range: RangeKey, now = Date.now()): { from: string; to: string } {
  // Rounded to the minute so polls and page loads share the server's short cache.
  const to = Math.ceil(now / 60_000) * 60_000;
  return { from: new Date(to - RANGES[range]).toISOString(), to: new Date(to).toISOString() };
}

export const summaryQuery = (w: { from: string; to: string }) => ({
  queryKey: ['audit-summary', w.from, w.to] as const,
  queryFn: () =>
    apiFetch<ChurnSummary>(`/api/audit/summary?from=${encodeURIComponent(w.from)}&to=${encodeURIComponent(w.to)}`),
  refetchInterval: 15_000,
  refetchIntervalInBackground: false,
});

export const lockEventsQuery = (lock: string, w: { from: string; to: string }) => ({
  queryKey: ['audit-lock', lock, w.from, w.to] as const,
  queryFn: () =>
    apiFetch<{ events: AuditRecord[]; total: number }>(
      `/api/audit?lock=${encodeURIComponent(lock)}&from=${encodeURIComponent(w.from)}&to=${encodeURIComponent(w.to)}`,
    ),
  refetchInterval: 10_000,
  refetchIntervalInBackground: false,
});
