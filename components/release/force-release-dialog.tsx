'use client';

import type { LockInfo } from '@/lib/lock/types';
import { ConflictNotice } from './release-conflict';
import { CliVersion } from '../cli-version';
import { ReleaseSummary } from './release-summary';
import { ModalForm } from '../ui/modal-form';
import { SafeText } from '../ui/safe-text';
import { ForceReleaseFields } from './force-release-fields';
import { ReleaseFooter } from './release-footer';
import type { Released } from './released';
import { useForceRelease } from './use-force-release';
import { useReleaseFocus } from './use-release-focus';

interface Props {
  lock: LockInfo;
  serverNow: number;
  onClose: (released: Released | null) => void;
}

/** Force-release one version. On 409 it shows what changed and never retries by itself. */
export function ForceReleaseDialog({ lock, serverNow, onClose }: Props) {
  const { target, fields, conflict, release, canSubmit, retry, releaseAnyway, submit } = useForceRelease(lock, onClose);
  const { dialog, closeButton, reviewButton } = useReleaseFocus(conflict);
  return (
    <ModalForm
      dialogRef={dialog}
      labelledBy="release-title"
      width="w-[min(36rem,95vw)]"
      onClose={() => onClose(null)}
      onSubmit={submit}
    >
      <h2 id="release-title" className="text-lg font-semibold">
        Force-release{' '}
        <span className="font-mono">
          <SafeText text={target.name} />
        </span>
      </h2>
      <ReleaseSummary target={target} serverNow={serverNow} />
      <CliVersion lock={target} />
      {conflict ? (
        <ConflictNotice conflict={conflict} reviewRef={reviewButton} onRetry={retry} onReleaseAnyway={releaseAnyway} />
      ) : (
        <ForceReleaseFields target={target} fields={fields} />
      )}
      <ReleaseFooter
        error={release.isError && !conflict ? release.error.message : null}
        done={Boolean(conflict)}
        closeRef={closeButton}
        onCancel={() => dialog.current?.close()}
        submitDisabled={!canSubmit}
        submitLabel={release.isPending ? 'Releasing…' : 'Force-release'}
      />
    </ModalForm>
  );
}
