// How a lock in Cloud Storage is shown: the object's LockInfo (objects/inspect.ts) as a LockView, its version the
// generation and metageneration a release is conditioned on, in GCS's words.
import type { LockView } from '../../store';
import type { LockInfo } from '../../types';
import { gcsTerms } from './words';

/** The GCS view of a LockInfo just built for it (filled in place: one object per lock); version = generation.metageneration. */
export function gcsView(lock: LockInfo, source: string): LockView {
  const view = lock as LockView;
  // Terraform's gcs backend takes the .tflock's generation as its lock ID
  if (lock.format === 'terraform')
    view.details = [...lock.details, ['Equivalent command', `terraform force-unlock ${lock.generation}`]];
  view.store = 'gcs';
  view.source = source;
  view.version = `${lock.generation}.${lock.metageneration}`;
  view.versionLabel = `generation ${lock.generation} / metageneration ${lock.metageneration}`;
  view.terms = gcsTerms(lock);
  return view;
}
