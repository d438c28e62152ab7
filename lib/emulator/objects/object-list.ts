// Listing a bucket as GCS pages it: names in order, prefixes folded at the delimiter, versions when asked, and an
// opaque page token naming where the next page starts.
import { invalid } from '../errors';
import type { SortedNames } from './sorted-names';
import type { ListOptions, ListPage, StoredBucket, StoredObject } from '../types';

export interface BucketState {
  info: StoredBucket;
  live: Map<string, StoredObject>;
  noncurrent: Map<string, StoredObject[]>;
  /** Names with a live or a noncurrent version. */
  names: SortedNames;
}

interface Cursor {
  n: string;
  v: number;
}

function encodeToken(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeToken(token: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Cursor;
    if (typeof cursor.n === 'string' && Number.isInteger(cursor.v)) return cursor;
  } catch {
    // fall through to the error below
  }
  throw invalid(`Invalid pageToken: ${token}`);
}

export function listPage(b: BucketState, opts: ListOptions): ListPage {
  const prefix = opts.prefix ?? '';
  const max = opts.maxResults ?? 1000;
  const items: StoredObject[] = [];
  const prefixes: string[] = [];
  let start = prefix;
  if (opts.startOffset !== undefined && opts.startOffset > start) start = opts.startOffset;
  let skipVersions = 0;
  if (opts.pageToken) {
    const cursor = decodeToken(opts.pageToken);
    if (cursor.n > start) start = cursor.n;
    skipVersions = cursor.v;
  }
  for (let i = b.names.lowerBound(start); i < b.names.size;) {
    const name = b.names.at(i)!;
    if (!name.startsWith(prefix) || (opts.endOffset !== undefined && name >= opts.endOffset)) break;
    const rest = name.slice(prefix.length);
    const cut = opts.delimiter ? rest.indexOf(opts.delimiter) : -1;
    if (cut >= 0 && (!opts.includeTrailingDelimiter || cut + opts.delimiter!.length < rest.length)) {
      if (items.length + prefixes.length >= max)
        return { items, prefixes, nextPageToken: encodeToken({ n: name, v: 0 }) };
      const group = prefix + rest.slice(0, cut + opts.delimiter!.length);
      prefixes.push(group);
      i = b.names.lowerBound(group + '\uffff');
      continue;
    }
    const versions = opts.versions ? [...(b.noncurrent.get(name) ?? [])] : [];
    const live = b.live.get(name);
    if (live) versions.push(live);
    versions.sort((x, y) => x.generation - y.generation);
    for (let v = skipVersions; v < versions.length; v++) {
      if (items.length + prefixes.length >= max) return { items, prefixes, nextPageToken: encodeToken({ n: name, v }) };
      items.push(versions[v]!);
    }
    skipVersions = 0;
    i++;
  }
  return { items, prefixes };
}
