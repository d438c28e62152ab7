// What a version of this store looks like (checked before anything is sent; a malformed one is a usage error): the
// Lease's resourceVersion (what the release PUT is pinned to), its uid (a re-created Lease has another) and a short
// hash of the holderIdentity seen (so a later renew by the same holder is told `refreshed`, not `changed`).
import { createHash } from 'node:crypto';
import type { VersionShape } from '../../store';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const SHAPE = new RegExp(`^(\\d+)\\.(${UUID})\\.([0-9a-f]{8})$`);

export const KUBERNETES_VERSION: VersionShape = {
  test: (v) => SHAPE.test(v),
  describe:
    'a Kubernetes version is RESOURCEVERSION.UID.HOLDER of the Lease seen ' +
    '(e.g. 4711.0b6f4c52-5d3e-4b8a-9c1e-2f7a9d1c3e5b.9f86d081), as `lockboard status --json` shows it',
};

export const holderHash = (holder: string): string => createHash('sha256').update(holder).digest('hex').slice(0, 8);

export const versionOfLease = (rv: string, uid: string, holder: string): string => `${rv}.${uid}.${holderHash(holder)}`;

export function parseVersion(v: string): { resourceVersion: string; uid: string; holder: string } {
  const m = SHAPE.exec(v);
  if (!m) throw new Error(`not a Kubernetes version: ${v}`);
  return { resourceVersion: m[1]!, uid: m[2]!, holder: m[3]! };
}
