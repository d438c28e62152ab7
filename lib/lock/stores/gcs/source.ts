// Cloud Storage sources: `gs://BUCKET/PREFIX` (the prefix ends with "/"); a whole object URL names one lock.
import type { SourceSpec } from '../types';

const URL_FORM = /^gs:\/\/([^/?#]*)(?:\/([^?#]*))?$/;
// the characters GCS allows; a name GCS refuses for its length is refused by GCS itself, naming it
const BUCKET = /^[a-z0-9](?:[a-z0-9._-]{0,220}[a-z0-9])?$/;

export function parseGcsSource(url: string): SourceSpec {
  const m = URL_FORM.exec(url);
  if (!m) throw new Error(`expected gs://BUCKET/PREFIX, got ${JSON.stringify(url)}`);
  const [, bucket = '', prefix = ''] = m;
  if (!BUCKET.test(bucket)) throw new Error(`${JSON.stringify(bucket)} is not a bucket name (in ${url})`);
  if (prefix && (!prefix.endsWith('/') || prefix.startsWith('/')))
    throw new Error(`"${url}": the prefix must end with "/" (gs://${bucket}/${prefix}/)`);
  return { kind: 'gcs', id: `gs://${bucket}/${prefix}`, bucket, bucketId: bucket, prefix, url: `gs://${bucket}/` };
}

/** A whole object URL (`gs://bucket/locks/a`): its source and the lock's name; undefined for a source. */
export function splitGcsLockUrl(url: string): { source: string; name: string } | undefined {
  const m = URL_FORM.exec(url);
  if (!m || !m[2] || m[2].endsWith('/')) return undefined;
  return { source: `gs://${m[1]}/`, name: m[2] };
}
