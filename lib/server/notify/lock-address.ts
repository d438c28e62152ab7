// A lock's address, as webhook `locks` globs name it: the source's URL without its prefix, then the lock's name
// (`gs://tf-state/envs/prod.tflock`, `redis://cache:6379/0/deploy`). Replaced by the access grants' own function
// (#47) once it lands.
import type { Source } from '../sources';

export function notifyLockAddress(source: Pick<Source, 'id' | 'prefix'>, name: string): string {
  const id = source.id.split('?')[0]!;
  const base = source.prefix && id.endsWith(source.prefix) ? id.slice(0, id.length - source.prefix.length) : id;
  return `${base.endsWith('/') ? base : `${base}/`}${name}`;
}
