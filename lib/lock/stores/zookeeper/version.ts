// What a version of this store looks like (checked before anything is sent; a malformed one is a usage error): the
// holder node's creation zxid (it names exactly one node, ever) and its data version.
import type { VersionShape } from '../../store';

export const ZOOKEEPER_VERSION: VersionShape = {
  test: (v) => /^\d{1,20}\.\d{1,10}$/.test(v),
  describe:
    'a ZooKeeper version is the holder node’s czxid and data version, CZXID.VERSION (e.g. 4294967301.0), as `lockboard status --json` shows it',
};

export function versionOf(czxid: bigint, dataVersion: number): string {
  return `${czxid}.${dataVersion}`;
}

export function parseVersion(v: string): { czxid: bigint; dataVersion: number } {
  const [z, d] = v.split('.');
  return { czxid: BigInt(z!), dataVersion: Number(d) };
}
