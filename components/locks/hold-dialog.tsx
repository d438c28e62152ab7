'use client';
// "Hold…": a lock taken on purpose, with a reason and an end, in its contenders' own format (POST /api/locks/hold).
// The store's formats offered where it has several; a Lease's leader-election acknowledgement; a session-bound
// format said to be impossible here. Keyboard: the reason is focused first, Esc closes, Enter submits.
import { useEffect, useRef } from 'react';
import { ModalForm, ReasonField } from '../ui/modal-form';
import { SafeText } from '../ui/safe-text';
import { ReleaseFooter } from '../release/release-footer';
import { useHold, type Held, type HoldFormatOption } from './use-hold';

const INPUT = 'mt-1 w-full rounded-md border border-zinc-300 bg-transparent p-2 dark:border-zinc-600';

export function HoldDialog(p: { name: string; bucket?: string; onClose: (held: Held | null) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
    dialog.current?.querySelector('textarea')?.focus();
  }, []);
  const { formats, offered, format, fields, hold, canSubmit } = useHold(p.name, p.bucket, (held) => p.onClose(held));
  return (
    <ModalForm
      dialogRef={dialog}
      labelledBy="hold-title"
      width="w-[min(36rem,95vw)]"
      onClose={() => p.onClose(null)}
      onSubmit={() => canSubmit && hold.mutate()}
    >
      <h2 id="hold-title" className="text-lg font-semibold">
        Hold{' '}
        <span className="break-all font-mono">
          <SafeText text={p.name} />
        </span>
      </h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Takes the lock on purpose, written as its contenders write it: they wait for it by themselves and show who holds
        it and why. Recorded in the audit trail.
      </p>
      {formats.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {formats.error.message}
        </p>
      )}
      {formats.data?.none && <p className="text-sm">{formats.data.none}</p>}
      <ReasonField
        label="Reason"
        value={fields.reason}
        onChange={fields.setReason}
        placeholder="INC-123 state surgery, do not apply"
      />
      {format && <FormatChoice offered={offered} format={format} setFormat={fields.setFormat} />}
      <label className="block text-sm">
        For (30m, 2h, 3d)
        <input
          required
          value={fields.duration}
          onChange={(e) => fields.setDuration(e.target.value)}
          className={INPUT}
          inputMode="text"
          autoComplete="off"
        />
      </label>
      {format?.ack && (
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" checked={fields.acked} onChange={(e) => fields.setAcked(e.target.checked)} />
          <span>{format.ack}. I understand.</span>
        </label>
      )}
      <ReleaseFooter
        error={hold.isError ? hold.error.message : null}
        done={false}
        onCancel={() => dialog.current?.close()}
        submitDisabled={!canSubmit}
        submitLabel={hold.isPending ? 'Holding…' : 'Hold'}
      />
    </ModalForm>
  );
}

/** The format: a choice where the store offers several; what it means for the hold's end; why it cannot be held. */
function FormatChoice(p: { offered: HoldFormatOption[]; format: HoldFormatOption; setFormat: (id: string) => void }) {
  const { format } = p;
  return (
    <div className="space-y-1 text-sm">
      {p.offered.length > 1 ? (
        <label className="block">
          Format
          <select value={format.id} onChange={(e) => p.setFormat(e.target.value)} className={INPUT}>
            {p.offered.map((f) => (
              <option key={f.id} value={f.id}>
                {f.label}
                {f.fits ? ' (this name’s format)' : ''}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <p>Format: {format.label}</p>
      )}
      <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="hold-format-note">
        {format.session
          ? `${format.label} cannot be held from the console: ${format.session}.`
          : `${format.endsItself ? 'The store ends it by itself at its end.' : 'Nothing ends it by itself: end it with “End hold” (or a console running then).'} At most ${format.maxWords}.`}
      </p>
    </div>
  );
}
