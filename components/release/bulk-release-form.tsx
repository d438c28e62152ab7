'use client';
// The bulk release's questions: the preview to tick, one reason for every lock, the number of locks typed to confirm,
// and which ticked locks still need their name typed.
import { BulkPreview } from './bulk-release-preview';
import { ReasonField } from '../ui/modal-form';
import { lockKey, type BulkRelease } from './use-bulk-release';

export function BulkReleaseForm({ bulk }: { bulk: BulkRelease }) {
  return (
    <>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Each lock is released only at the version below; one that changed hands or was refreshed since is kept. Locks
        whose holder may be alive, or whose release ends more than the lock, are not ticked: tick one and type its name
        to include it, as a single release asks.
      </p>
      <BulkPreview
        locks={bulk.snapshot}
        selected={bulk.selected}
        typed={bulk.typedNames}
        lockKey={lockKey}
        onSelect={bulk.select}
        onType={bulk.typeName}
      />
      <ReasonField
        label="Reason (recorded in the audit trail for each lock)"
        value={bulk.reason}
        onChange={bulk.setReason}
        placeholder="e.g. CI runners of pool B died"
      />
      <label className="block text-sm">
        Type the number of locks to release ({bulk.chosen.length}) to confirm
        <input
          value={bulk.typed}
          inputMode="numeric"
          onChange={(e) => bulk.setTyped(e.target.value)}
          className="mt-1 w-32 rounded-md border border-zinc-300 bg-transparent p-2 font-mono dark:border-zinc-600"
          aria-label="Type the number of locks to confirm"
        />
      </label>
      <NamesMissing missing={bulk.missing} />
    </>
  );
}

/** The ticked locks whose name is still to be typed. */
function NamesMissing({ missing }: { missing: { name: string }[] }) {
  if (missing.length === 0) return null;
  return (
    <p className="text-sm text-amber-800 dark:text-amber-200" data-testid="bulk-names-missing">
      Type the name of {missing.length === 1 ? missing[0]!.name : `each of the ${missing.length} locks marked`} to
      include {missing.length === 1 ? 'it' : 'them'}.
    </p>
  );
}
