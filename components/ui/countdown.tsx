import { formatDuration } from '@/lib/text/format';

/** "expires in" on server time: a fixed-width cell so polling never moves the layout. */
export function Countdown({ expiresAt, serverNow }: { expiresAt?: string; serverNow: number }) {
  if (!expiresAt) return <span className="text-zinc-500">never</span>;
  const left = Date.parse(expiresAt) - serverNow;
  if (left <= 0)
    return <span className="tabular text-red-700 dark:text-red-300">expired {formatDuration(-left)} ago</span>;
  return <span className="tabular">{formatDuration(left)}</span>;
}
