// grafana/certmagic-gcs (Caddy): `<key>.lock`, empty, no custom metadata; held while temporaryHold is set, stale
// 60 s after the last update (a constant of that library). Without a hold it is a released marker (or being taken).
// A DELETE fails while the hold is set, so release clears the hold first (a conditional PATCH).
import type { LockFormatModule } from './types';

const CERTMAGIC_STALE_MS = 60_000;

export const certmagic: LockFormatModule = {
  id: 'certmagic',
  label: 'Caddy certmagic-gcs lock',
  read(view) {
    if (!view.name.endsWith('.lock') || view.size !== 0 || Object.keys(view.metadata).length > 0) return null;
    if (!view.temporaryHold) return { released: true, details: [['Temporary hold', 'no']] };
    return { staleAt: view.updatedMs + CERTMAGIC_STALE_MS, details: [['Temporary hold', 'yes']] };
  },
  release: 'clear-hold-then-delete',
  releaseNote:
    'Clears the temporary hold (a PATCH conditioned on the metageneration you saw), then deletes that generation.',
};
