// What a version of this store looks like (checked before anything is sent; a malformed one is a usage error).
import type { VersionShape } from '../../store';

export const S3_VERSION: VersionShape = {
  test: (v) => /^[0-9a-f]{32}(-\d{1,5})?\.\d{1,16}(\.\d{1,20})?$/.test(v),
  describe:
    'an S3 version is ETAG.LASTMODIFIED_MS (and .TOKEN for a Lockboard lock), as `lockboard status --json` shows it',
};
