'use client';
// The questions a single force-release asks: the reason for the audit trail, an explicit yes to a consequence the
// store names, and the lock's name typed when its holder may be alive.
import type { LockInfo } from '@/lib/lock/types';
import { ReasonField } from '../ui/modal-form';
import { SafeText } from '../ui/safe-text';
import type { ReleaseFields } from './use-release-fields';

export function ForceReleaseFields({ target, fields }: { target: LockInfo; fields: ReleaseFields }) {
  return (
    <>
      {target.sentence && (
        <p className="text-sm font-medium" data-testid="release-verdict">
          <SafeText text={target.sentence} />
        </p>
      )}
      <ReasonField
        label="Reason (recorded in the audit trail)"
        value={fields.reason}
        onChange={fields.setReason}
        placeholder="e.g. runner died, pipeline cancelled"
      />
      {fields.mustAccept && (
        <label className="flex gap-2 text-sm">
          <input type="checkbox" checked={fields.accepted} onChange={(e) => fields.setAccepted(e.target.checked)} />
          <span>{fields.mustAccept}</span>
        </label>
      )}
      {fields.holderAlive && (
        <label className="flex gap-2 text-sm font-medium text-red-700 dark:text-red-400">
          <input
            type="checkbox"
            checked={fields.aliveAcknowledged}
            onChange={(e) => fields.setAliveAcknowledged(e.target.checked)}
          />
          <span>The holder is alive: clearing makes two holders. I clear it anyway.</span>
        </label>
      )}
      {fields.needsTyping && <TypedNameField target={target} typed={fields.typed} onType={fields.setTyped} />}
    </>
  );
}

/** Why the name is asked (the holder is alive, its liveness is unknown, or the store's words), and the box for it. */
function TypedNameField({ target, typed, onType }: { target: LockInfo; typed: string; onType: (v: string) => void }) {
  return (
    <label className="block text-sm">
      {target.health === 'unknown'
        ? 'Its liveness cannot be judged (no TTL in this format).'
        : target.health === 'healthy' || target.health === 'long-held'
          ? 'The holder is alive.'
          : (target.terms?.effect ?? '')}{' '}
      Type the lock name to confirm:{' '}
      <span className="font-mono">
        <SafeText text={target.name} />
      </span>
      <input
        value={typed}
        onChange={(e) => onType(e.target.value)}
        className="mt-1 w-full rounded-md border border-zinc-300 bg-transparent p-2 font-mono dark:border-zinc-600"
        aria-label="Type the lock name to confirm"
      />
    </label>
  );
}
