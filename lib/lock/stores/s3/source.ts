// S3 sources: `s3://BUCKET/PREFIX` (the prefix ends with "/"); `?conditional-deletes=false` lists the source
// read-only (an endpoint without conditional deletes). A whole object URL names one lock.
import type { SourceSpec } from '../types';

const URL_FORM = /^s3:\/\/([^/?#]*)(?:\/([^?#]*))?(?:\?(.*))?$/;
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const NO_CONDITIONAL_DELETES =
  'its endpoint is configured as lacking conditional deletes, and Lockboard never sends an unconditional DELETE.';

export function parseS3Source(url: string): SourceSpec {
  const m = URL_FORM.exec(url);
  if (!m) throw new Error(`expected s3://BUCKET/PREFIX, got ${JSON.stringify(url)}`);
  const [, bucket = '', prefix = '', query] = m;
  if (!BUCKET.test(bucket)) throw new Error(`${JSON.stringify(bucket)} is not a bucket name (in ${url})`);
  if (query !== undefined && query !== 'conditional-deletes=false')
    throw new Error(`"${url}": the only source option is ?conditional-deletes=false`);
  if (prefix && (!prefix.endsWith('/') || prefix.startsWith('/')))
    throw new Error(`"${url}": the prefix must end with "/" (s3://${bucket}/${prefix}/)`);
  return {
    kind: 's3',
    id: `s3://${bucket}/${prefix}`,
    bucket,
    bucketId: `s3://${bucket}`,
    prefix,
    url: `s3://${bucket}/`,
    ...(query ? { readOnly: NO_CONDITIONAL_DELETES } : {}),
  };
}

/** A whole object URL (`s3://bucket/locks/a`): its source and the lock's name; undefined for a source. */
export function splitS3LockUrl(url: string): { source: string; name: string } | undefined {
  const m = URL_FORM.exec(url);
  if (!m || m[3] !== undefined || !m[2] || m[2].endsWith('/')) return undefined;
  return { source: `s3://${m[1]}/`, name: m[2] };
}
