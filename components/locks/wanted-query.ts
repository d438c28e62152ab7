// The locks page's query as the server takes it, read from the address (the server filters, sorts, counts and pages
// over every lock: the address is the query).
import type { LocksQuery } from '@/lib/console/queries';
import type { useUrlState } from '../ui/use-url-state';

export function wantedQuery(
  url: Pick<ReturnType<typeof useUrlState>, 'q' | 'health' | 'verdict' | 'sort'>,
): LocksQuery {
  return {
    ...(url.q.trim() ? { q: url.q.trim() } : {}),
    ...(url.health ? { health: url.health } : {}),
    ...(url.verdict ? { verdict: url.verdict } : {}),
    sort: url.sort.key,
    order: url.sort.dir,
  };
}
