// A lock's address, as webhook `locks` globs name it: the one store-neutral address of lib/lock/address.ts, the same
// that access grants match (`gs://tf-state/envs/prod.tflock`, `redis://cache:6379/0/deploy`).
import { lockAddress } from '@/lib/lock/address';
import type { Source } from '../sources';

export function notifyLockAddress(source: Pick<Source, 'id' | 'prefix'>, name: string): string {
  return lockAddress(source, name);
}
