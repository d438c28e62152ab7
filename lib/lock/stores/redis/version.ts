// What a version of this store looks like (checked before anything is sent; a malformed one is a usage error).
import type { VersionShape } from '../../store';

export const REDIS_VERSION: VersionShape = {
  test: (v) => /^[0-9a-f]{16}$/.test(v),
  describe: 'a Redis version is 16 hex digits (a hash of the value seen), as `lockboard status --json` shows it',
};
