'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback } from 'react';
import type { LockHealth } from '@/lib/lock/types';
import { HEALTHS } from '@/lib/console/health';
import { isVerdict } from '@/lib/lock/verdict/verdict';
import type { SortKey } from '../locks/lock-table';

const SORT_KEYS: SortKey[] = [
  'name',
  'source',
  'owner',
  'health',
  'held',
  'refresh',
  'expires',
  'generation',
  'format',
];

/** Source, health and verdict chips, filter text and sort live in the address: shareable, and the back button undoes them. */
export function useUrlState() {
  const pathname = usePathname();
  const search = useSearchParams();
  const healthParam = search.get('health');
  const verdictParam = search.get('verdict');
  const sortParam = search.get('sort') as SortKey | null;
  const state = {
    health: healthParam && (HEALTHS as readonly string[]).includes(healthParam) ? (healthParam as LockHealth) : null,
    verdict: isVerdict(verdictParam) ? verdictParam : null,
    sort: {
      key: sortParam && SORT_KEYS.includes(sortParam) ? sortParam : ('name' as SortKey),
      dir: search.get('dir') === 'desc' ? ('desc' as const) : ('asc' as const),
    },
    q: search.get('q') ?? '',
  };
  const update = useCallback(
    (changes: Record<string, string | null>, mode: 'push' | 'replace' = 'push') => {
      const next = new URLSearchParams(search.toString());
      for (const [k, v] of Object.entries(changes)) {
        if (v === null || v === '') next.delete(k);
        else next.set(k, v);
      }
      const qs = next.toString();
      // the browser's own history (Next keeps useSearchParams in step): no server round trip for a sort or a
      // filter, and the page's data stays what the stream made it
      window.history[mode === 'push' ? 'pushState' : 'replaceState'](null, '', `${pathname}${qs ? `?${qs}` : ''}`);
    },
    [pathname, search],
  );
  return { ...state, update };
}
