// "N other objects skipped": what it counts, per source, and the store's reasons where it gave any (a bounded sample),
// folded under the line so it never pushes the list down.
import type { SourceStateData } from '@/lib/console/queries';
import { formatCount as n } from '@/lib/text/format';
import { plural } from '@/lib/text/plural';

const COUNTS =
  'Entries under a source that are not a lock Lockboard reads: data kept beside the locks (such as Terraform state), ' +
  "Lockboard's own audit events and delivery markers where the trail lies inside the source, the rows or keys a " +
  'tool keeps after a release (ShedLock, Liquibase, Flyway), Kubernetes Leases nobody holds, and anything in no lock ' +
  'format Lockboard knows. Each listing counts them again; Lockboard never offers to delete them.';

export function SkippedNote({
  where,
  skipped,
  sources,
}: {
  where: string;
  skipped: number;
  sources: SourceStateData[];
}) {
  if (skipped <= 0) return null;
  const counted = sources.filter((s) => s.skipped > 0);
  const why = counted.flatMap((s) => (s.skippedWhy ?? []).map((w) => `${s.source}: ${w}`));
  return (
    <details className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="skipped-count">
      <summary className="cursor-pointer">
        {plural('other object', skipped, { format: n })} in {where} skipped: not locks (what is counted?)
      </summary>
      <div className="mt-1 space-y-1 pl-4" data-testid="skipped-detail">
        <p>{COUNTS}</p>
        {counted.length > 0 && (
          <ul className="list-disc pl-4">
            {counted.map((s) => (
              <li key={s.source}>
                <span className="font-mono">{s.source}</span>: {n(s.skipped)}
              </li>
            ))}
          </ul>
        )}
        {why.length > 0 && (
          <>
            <p>Why some could not be read, as the store said (a sample):</p>
            <ul className="list-disc pl-4 font-mono text-xs break-all">
              {why.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </>
        )}
        <p>
          The same count is the API&apos;s <code>skipped</code> (per source in <code>sources[].skipped</code>) and{' '}
          <code>lockboard ls SOURCE</code>&apos;s last line.
        </p>
      </div>
    </details>
  );
}
