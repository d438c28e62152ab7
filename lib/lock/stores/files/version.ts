// What a version of a lock file looks like: `DEV.INO.BIRTH_NS.MTIME_NS.SIZE.SHA256-16` (checked before anything is
// sent; a malformed one is a usage error), and the file identity it pins.
import type { VersionShape } from '../../store';
import type { Identity } from './entry';

export function parseVersion(v: string): Pick<Identity, 'dev' | 'ino' | 'birthNs'> | null {
  const m = /^(\d+)\.(\d+)\.(\d+)\.\d+\.\d+\.[0-9a-f]{16}$/.exec(v);
  return m ? { dev: BigInt(m[1]!), ino: BigInt(m[2]!), birthNs: BigInt(m[3]!) } : null;
}

export const FILES_VERSION: VersionShape = {
  test: (v: string) => parseVersion(v) !== null,
  describe:
    'a lock-file version is DEV.INO.BIRTH_NS.MTIME_NS.SIZE.SHA256 (device, inode, birth and modification times in ns, size, 16 hex digits of the content hash), e.g. 65024.2231689.1764060000123456789.1764060000123456789.0.e3b0c44298fc1c14, as `lockboard status --json` shows it',
};
