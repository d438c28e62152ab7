// What a version of this store looks like (checked before anything is sent; a malformed one is a usage error).
import type { VersionShape } from '../../store';

const SHAPE = /^(\d+)\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export const KUBERNETES_VERSION: VersionShape = {
  test: (v) => SHAPE.test(v),
  describe:
    'a Kubernetes version is RESOURCEVERSION.UID of the Lease seen (e.g. 4711.0b6f4c52-5d3e-4b8a-9c1e-2f7a9d1c3e5b), ' +
    'as `lockboard status --json` shows it',
};

/** The version of a Lease: its resourceVersion (what the release PUT is pinned to) and its uid (a re-created Lease has another). */
export const versionOfLease = (rv: string, uid: string): string => `${rv}.${uid}`;

export function parseVersion(v: string): { resourceVersion: string; uid: string } {
  const m = SHAPE.exec(v);
  if (!m) throw new Error(`not a Kubernetes version: ${v}`);
  return { resourceVersion: m[1]!, uid: m[2]! };
}
