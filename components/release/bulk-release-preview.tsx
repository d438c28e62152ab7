'use client';
// The bulk release's preview: each lock with its source and its version in its store's words, a box to include it,
// and, for a lock a single release would ask the name of (a live holder, unknown liveness, an ended session), the
// same question before it is included.
import type { LockInfo } from '@/lib/lock/types';
import { versionText } from '@/lib/text/format';
import { needsTypedName } from '@/lib/console/release-care';
import { HealthBadge } from '../ui/health-badge';

export function BulkPreview({
  locks,
  selected,
  typed,
  lockKey,
  onSelect,
  onType,
}: {
  locks: LockInfo[];
  selected: Set<string>;
  typed: Record<string, string>;
  lockKey: (l: LockInfo) => string;
  onSelect: (key: string, on: boolean) => void;
  onType: (key: string, value: string) => void;
}) {
  return (
    <div className="max-h-[40vh] overflow-auto rounded-md ring-1 ring-zinc-200 dark:ring-zinc-700">
      <table className="w-full text-left text-sm" data-testid="bulk-preview">
        <thead className="sticky top-0 bg-zinc-50 text-xs uppercase text-zinc-500 dark:bg-zinc-800">
          <tr>
            <th className="p-2">
              <span className="sr-only">Release</span>
            </th>
            <th className="p-2">Lock</th>
            <th className="p-2">Source</th>
            <th className="p-2">Holder</th>
            <th className="p-2">Health</th>
            <th className="p-2">Version</th>
          </tr>
        </thead>
        <tbody>
          {locks.map((l) => {
            const k = lockKey(l);
            return (
              <PreviewRow
                key={k}
                lock={l}
                selected={selected.has(k)}
                typed={typed[k] ?? ''}
                onSelect={(on) => onSelect(k, on)}
                onType={(value) => onType(k, value)}
              />
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** One lock of the preview: its box, its name (and the name asked when its holder may be alive), source, holder, health, version. */
function PreviewRow({
  lock: l,
  selected,
  typed,
  onSelect,
  onType,
}: {
  lock: LockInfo;
  selected: boolean;
  typed: string;
  onSelect: (on: boolean) => void;
  onType: (value: string) => void;
}) {
  const ask = needsTypedName(l) && selected;
  return (
    <tr className="border-t border-zinc-100 align-top dark:border-zinc-800">
      <td className="p-2">
        <input
          type="checkbox"
          checked={selected}
          aria-label={`Release ${l.name}`}
          onChange={(e) => onSelect(e.target.checked)}
        />
      </td>
      <td className="max-w-[16rem] p-2">
        <div className="truncate font-mono">{l.name}</div>
        {ask && (
          <label className="mt-1 block text-xs text-amber-900 dark:text-amber-200">
            {l.terms?.confirmByName ? l.terms.effect : 'Its holder may be alive.'} Type its name to include it:
            <input
              value={typed}
              onChange={(e) => onType(e.target.value)}
              aria-label={`Type ${l.name} to include it`}
              className="mt-1 w-full rounded border border-zinc-300 bg-transparent p-1 font-mono dark:border-zinc-600"
            />
          </label>
        )}
      </td>
      <td className="max-w-[12rem] truncate p-2 text-xs" title={l.terms?.storeLabel}>
        {l.source ?? l.bucket}
      </td>
      <td className="max-w-[12rem] truncate p-2">{l.identity ?? 'unknown'}</td>
      <td className="p-2">
        <HealthBadge health={l.health} />
      </td>
      <td className="p-2 font-mono text-xs" title={l.terms?.versionName}>
        {versionText(l)}
        {l.terms?.versionName && <div className="font-sans text-zinc-500">{l.terms.versionName}</div>}
      </td>
    </tr>
  );
}
