'use client';
// What stands in for the lock table: nothing while the first rows are still being listed, a source with no locks, or
// a filter that matches none.
import type { LocksData } from '@/lib/console/queries';

type ListShape = 'listing' | 'empty' | 'no-match' | 'table';

/** Which of the four the page shows, from the server's answer and the rows it has. */
export function listShape(data: LocksData | undefined, shown: number): ListShape {
  if (data && !data.complete && shown === 0) return 'listing';
  if (data && data.total === 0) return 'empty';
  if (shown === 0 && data) return 'no-match';
  return 'table';
}

export function EmptyList({ shape, where }: { shape: Exclude<ListShape, 'table'>; where: string }) {
  if (shape === 'listing') return null;
  if (shape === 'no-match')
    return <p className="p-6 text-center text-sm text-zinc-500">No lock matches this filter.</p>;
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 p-10 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
      <p className="font-medium">No locks in {where} right now.</p>
      <p>
        Locks appear here while a program, pipeline or <code>lockboard run</code> holds them.
      </p>
    </div>
  );
}
