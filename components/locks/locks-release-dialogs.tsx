'use client';
// The locks page's release dialogs: one lock (read again from the server), the locks shown, or every lock judged gone,
// each closing with the confirmation the page shows.
import type { LockInfo } from '@/lib/lock/types';
import type { LocksData, LocksQuery } from '@/lib/console/queries';
import { BulkReleaseDialog } from '../release/bulk-release-dialog';
import { ForceReleaseDialog } from '../release/force-release-dialog';
import { ReleaseGoneDialog } from '../release/release-gone-dialog';
import { releasedNotice } from '../release/released';

export function LocksReleaseDialogs(p: {
  bulk: LockInfo[] | null;
  releasing: LockInfo | null;
  /** "Release all gone": its first window, and the list's source, query and name. */
  gone: { first: LocksData; source: string; query: LocksQuery; where: string } | null;
  serverNow: number;
  closeBulk: () => void;
  closeGone: () => void;
  closeOne: () => void;
  /** The dialog closed: what it did, for the page to say (null: nothing). */
  onDone: (said: string | null) => void;
}) {
  const { bulk, releasing } = p;
  return (
    <>
      {bulk && (
        <BulkReleaseDialog
          locks={bulk}
          onClose={(summary) => {
            p.closeBulk();
            p.onDone(summary);
          }}
        />
      )}
      {p.gone && (
        <ReleaseGoneDialog
          {...p.gone}
          onClose={(summary) => {
            p.closeGone();
            p.onDone(summary);
          }}
        />
      )}
      {releasing && (
        <ForceReleaseDialog
          lock={releasing}
          serverNow={p.serverNow}
          onClose={(released) => {
            p.closeOne();
            p.onDone(released ? releasedNotice(releasing, released) : null);
          }}
        />
      )}
    </>
  );
}
