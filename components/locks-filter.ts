// The locks page's client-side view of a listing: counts per health chip, the filter text, and the sort.
import { HEALTHS } from '@/lib/health';
import type { LockHealth, LockInfo } from '@/lib/lock/types';
import type { SortKey } from './lock-table';

export function chip(active: boolean): string {
  return `inline-flex items-center gap-1 rounded-full px-2 py-1 text-sm ring-1 ring-inset ${active ? 'ring-blue-600 bg-blue-50 dark:bg-blue-950' : 'ring-zinc-300 dark:ring-zinc-700'}`;
}

export function countByHealth(locks: LockInfo[]): Record<LockHealth, number> {
  const counts = Object.fromEntries(HEALTHS.map((h) => [h, 0])) as Record<LockHealth, number>;
  for (const l of locks) counts[l.health]++;
  return counts;
}

export function filterLocks(locks: LockInfo[], health: LockHealth | null, text: string): LockInfo[] {
  const q = text.trim().toLowerCase();
  return locks.filter(
    (l) =>
      (!health || l.health === health) &&
      (!q || [l.name, l.identity, l.purpose, l.host].some((v) => v?.toLowerCase().includes(q))),
  );
}

const SORT_VALUE: Record<SortKey, (l: LockInfo) => string | number> = {
  name: (l) => l.name,
  source: (l) => `${l.source ?? l.bucket}\u0000${l.name}`,
  owner: (l) => l.identity ?? '',
  health: (l) => HEALTHS.indexOf(l.health),
  held: (l) => -Date.parse(l.createdAt),
  refresh: (l) => -Date.parse(l.updatedAt),
  expires: (l) => (l.expiresAt ? Date.parse(l.expiresAt) : Number.MAX_SAFE_INTEGER),
  generation: (l) => l.version ?? l.generation,
  format: (l) => l.format,
};

export function sortLocks(locks: LockInfo[], sort: { key: SortKey; dir: 'asc' | 'desc' }): LockInfo[] {
  const value = SORT_VALUE[sort.key];
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...locks].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    return (x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : 1) * sign;
  });
}
