// The few XML documents the S3 emulator writes (ListObjectsV2, errors): escaped text, ISO times with milliseconds.
import type { S3ListPage } from './store';

export const xmlEscape = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function listXml(
  bucket: string,
  page: S3ListPage,
  q: { prefix: string; maxKeys: number; delimiter?: string; token?: string; startAfter?: string },
): string {
  const tag = (name: string, value: string | number | undefined) =>
    value === undefined ? '' : `<${name}>${xmlEscape(String(value))}</${name}>`;
  const contents = page.contents
    .map(
      (o) =>
        `<Contents>${tag('Key', o.key)}${tag('LastModified', new Date(o.lastModified).toISOString())}` +
        `${tag('ETag', o.etag)}${tag('Size', o.data.length)}<StorageClass>STANDARD</StorageClass></Contents>`,
    )
    .join('');
  const prefixes = page.commonPrefixes.map((p) => `<CommonPrefixes>${tag('Prefix', p)}</CommonPrefixes>`).join('');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
    `${tag('Name', bucket)}${tag('Prefix', q.prefix)}${tag('Delimiter', q.delimiter)}${tag('MaxKeys', q.maxKeys)}` +
    `${tag('KeyCount', page.contents.length + page.commonPrefixes.length)}${tag('ContinuationToken', q.token)}` +
    `${tag('StartAfter', q.startAfter)}<IsTruncated>${page.isTruncated}</IsTruncated>` +
    `${tag('NextContinuationToken', page.nextContinuationToken)}${contents}${prefixes}</ListBucketResult>`
  );
}
