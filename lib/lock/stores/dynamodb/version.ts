// What a version of a DynamoDB lock looks like (checked before anything is sent; a malformed one is a usage error).
import type { VersionShape } from '../../store';

export const DYNAMODB_VERSION: VersionShape = {
  test: (v) => /^[0-9a-f]{16}(\.[0-9a-f]{8})?$/.test(v),
  describe:
    'a DynamoDB version is 16 hex digits (a hash of what the item held), and for a lease client a dot and 8 more (its owner), as `lockboard status --json` shows it',
};
