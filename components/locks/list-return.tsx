'use client';
// "← All locks" returns to the list a lock was opened from, with its query (source, q, health, format, sort, order):
// the list remembers its address in this tab, and the lock page's back link uses it when that list could have shown
// this lock (the same source, or all sources). A lock opened from elsewhere (churn, a shared link) goes back to its
// own source's list.
import { useSearchParams } from 'next/navigation';
import { useEffect, useSyncExternalStore } from 'react';
import { ALL_SOURCES } from '@/lib/console/queries';

const KEY = 'lockboard:list-query';

interface Remembered {
  /** The source the list showed (a configured id or "all"), resolved by the server when the address names none. */
  source: string;
  /** The list's query string, without the "?". */
  search: string;
}

/** Rendered by the list page: keeps the list's current address (filters change it without a navigation). */
export function RememberListQuery({ source }: { source: string }) {
  const search = useSearchParams().toString();
  useEffect(() => {
    try {
      sessionStorage.setItem(KEY, JSON.stringify({ source, search } satisfies Remembered));
    } catch {
      // storage refused (private mode, quota): the back link goes to the lock's own source
    }
  }, [source, search]);
  return null;
}

function remembered(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** The back link of a lock page: its href and its words. `source` is the lock's source once it is known. */
export function useListReturn(source: string | undefined): { href: string; label: string } {
  // read after hydration only: the server renders the plain link, so the markup matches
  const raw = useSyncExternalStore(
    () => () => {},
    remembered,
    () => null,
  );
  const own = source
    ? { href: `/locks?source=${encodeURIComponent(source)}`, label: `Locks of ${source}` }
    : { href: '/locks', label: 'All locks' };
  const list = parse(raw);
  if (!list || (source && list.source !== source && list.source !== ALL_SOURCES)) return own;
  const label = list.source === ALL_SOURCES ? 'All locks' : `Locks of ${list.source}`;
  const filtered = [...new URLSearchParams(list.search).keys()].some((k) => k !== 'source');
  return { href: `/locks${list.search ? `?${list.search}` : ''}`, label: filtered ? `${label} (as filtered)` : label };
}

function parse(raw: string | null): Remembered | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<Remembered>;
    return typeof v.source === 'string' && typeof v.search === 'string' ? { source: v.source, search: v.search } : null;
  } catch {
    return null;
  }
}
