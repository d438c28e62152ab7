'use client';
// "Release all gone": what it will do (how many locks are judged gone, that each is judged again when released), one
// reason, then progress while it runs and a summary: released N, skipped M, each skipped lock with why.
import { useEffect, useRef } from 'react';
import { formatCount as n } from '@/lib/text/format';
import type { LocksData, LocksQuery } from '@/lib/console/queries';
import { ModalForm, ReasonField } from '../ui/modal-form';
import { Button } from '../ui/button';
import { ReleaseFooter } from './release-footer';
import { GoneProgressView, GoneSummary } from './release-gone-summary';
import { goneSummary, useReleaseGone } from './use-release-gone';

export function ReleaseGoneDialog(p: {
  source: string;
  /** The list's query (its filters); the dialog adds the verdict. */
  query: LocksQuery;
  /** The first window of gone locks, read when the dialog opened. */
  first: LocksData;
  where: string;
  onClose: (summary: string | null) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const gone = useReleaseGone(p);
  const { run, progress, done } = gone;
  const filtered = Boolean(p.query.q || p.query.health || p.query.format);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  useEffect(() => {
    if (done) heading.current?.focus();
  }, [done]);
  return (
    <ModalForm
      dialogRef={dialog}
      labelledBy="gone-title"
      width="w-[min(40rem,95vw)]"
      onClose={() => {
        gone.stop(); // closed while running (Esc): it ends after the batch under way
        p.onClose(goneSummary({ ...progress, stopped: progress.stopped || run.isPending }, !run.isIdle));
      }}
      onSubmit={gone.submit}
    >
      <h2 id="gone-title" className="text-lg font-semibold">
        Release all gone
      </h2>
      {run.isIdle && (
        <>
          <p className="text-sm" data-testid="gone-matched">
            {n(p.first.matched)} lock{p.first.matched === 1 ? ' is' : 's are'} judged gone in {p.where}
            {filtered ? " and match the list's filter" : ''}.
          </p>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Each is judged again when it is released: a lock whose holder is no longer gone is skipped and listed, never
            released. Each is released only at the version listed; one that changed since is kept.
          </p>
          <ReasonField
            label="Reason (recorded in the audit trail for each lock)"
            value={gone.reason}
            onChange={gone.setReason}
            placeholder="e.g. the build hosts of pool B were replaced"
          />
        </>
      )}
      {run.isPending && (
        <>
          <GoneProgressView progress={progress} total={p.first.matched} />
          <Button onClick={gone.stop} disabled={gone.stopping}>
            {gone.stopping ? 'Stopping after this batch…' : 'Stop after this batch'}
          </Button>
        </>
      )}
      {done && <GoneSummary progress={progress} headingRef={heading} />}
      <ReleaseFooter
        error={run.isError ? `Stopped: ${run.error.message}` : null}
        done={done}
        onCancel={() => dialog.current?.close()}
        submitDisabled={!gone.canSubmit}
        submitLabel={run.isPending ? 'Releasing…' : `Release ${n(p.first.matched)} gone`}
      />
    </ModalForm>
  );
}
