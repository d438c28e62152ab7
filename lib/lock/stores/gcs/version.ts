// What a version of this store looks like (checked before anything is sent; a malformed one is a usage error).
import type { VersionShape } from '../../store';

export const GCS_VERSION: VersionShape = {
  test: (v) => /^\d{1,20}(\.\d{1,20})?$/.test(v),
  describe:
    'a GCS version is GENERATION.METAGENERATION, e.g. 1714000000123456.1 (GENERATION alone skips the refresh check)',
};
