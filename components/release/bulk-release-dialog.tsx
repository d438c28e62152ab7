'use client';

import { useEffect, useRef } from 'react';
import type { LockInfo } from '@/lib/lock/types';
import { BulkResults } from './bulk-release-results';
import { BulkReleaseForm } from './bulk-release-form';
import { ModalForm } from '../ui/modal-form';
import { ReleaseFooter } from './release-footer';
import { BULK_LIMIT, bulkSummary, useBulkRelease } from './use-bulk-release';

/**
 * Preview → typed count + one reason → per-lock results. The preview is a snapshot: each lock is released only at
 * the version listed here, so a lock that changed since is never deleted.
 */
export function BulkReleaseDialog({
  locks,
  onClose,
}: {
  locks: LockInfo[];
  onClose: (summary: string | null) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const bulk = useBulkRelease(locks);
  const { chosen, batch, results } = bulk;
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  useEffect(() => {
    if (results) resultsHeading.current?.focus();
  }, [results]);

  return (
    <ModalForm
      dialogRef={dialog}
      labelledBy="bulk-title"
      width="w-[min(56rem,95vw)]"
      onClose={() => onClose(bulkSummary(results))}
      onSubmit={bulk.submit}
    >
      <h2 id="bulk-title" className="text-lg font-semibold">
        Force-release {chosen.length} lock{chosen.length === 1 ? '' : 's'}
      </h2>
      {locks.length > BULK_LIMIT && (
        <p className="text-sm text-amber-800 dark:text-amber-200">
          Only the first {BULK_LIMIT} of the {locks.length} locks shown can be released at once.
        </p>
      )}
      {results ? <BulkResults results={results} headingRef={resultsHeading} /> : <BulkReleaseForm bulk={bulk} />}
      <ReleaseFooter
        error={batch.isError ? batch.error.message : null}
        done={Boolean(results)}
        onCancel={() => dialog.current?.close()}
        submitDisabled={!bulk.canSubmit || batch.isPending}
        submitLabel={batch.isPending ? 'Releasing…' : `Force-release ${chosen.length}`}
      />
    </ModalForm>
  );
}
