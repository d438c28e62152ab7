// What a version of this store looks like (checked before anything is sent; a malformed one is a usage error).
import type { VersionShape } from '../../store';

/** The holder key's create revision: the release is `Txn If(CreateRevision(key) == version) Then Delete(key)`. */
export const ETCD_VERSION: VersionShape = {
  test: (v) => /^[1-9]\d{0,18}$/.test(v),
  describe:
    'an etcd version is the holder key’s create revision, a decimal number such as 42, as `lockboard status --json` shows it',
};
