// restic (internal/repository/lock_file.go): `<repo>/locks/<64 hex>`, encrypted body; a holder writes a new lock
// file every 5 minutes and others treat one older than 30 minutes as stale.
import type { LockFormatModule } from './types';

const LOCK_NAME = /(?:^|\/)locks\/[0-9a-f]{64}$/;
const RESTIC_STALE_MS = 30 * 60_000;

export const restic: LockFormatModule = {
  id: 'restic',
  label: 'restic repository lock',
  read(view) {
    if (!LOCK_NAME.test(view.name)) return null;
    return {
      staleAt: view.createdMs + RESTIC_STALE_MS,
      ttlMs: RESTIC_STALE_MS,
      details: [['Owner', 'encrypted (run `restic list locks`)']],
    };
  },
  release: 'delete',
  releaseNote: 'Deletes this lock file, like `restic unlock` does for stale locks.',
};
