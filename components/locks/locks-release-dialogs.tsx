'use client';
// The locks page's release dialogs: one lock (read again from the server) or the locks shown, each closing with the
// confirmation the page shows.
import type { LockInfo } from '@/lib/lock/types';
import { BulkReleaseDialog } from '../release/bulk-release-dialog';
import { ForceReleaseDialog } from '../release/force-release-dialog';
import { releasedNotice } from '../release/released';

export function LocksReleaseDialogs(p: {
  bulk: LockInfo[] | null;
  releasing: LockInfo | null;
  serverNow: number;
  closeBulk: () => void;
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
