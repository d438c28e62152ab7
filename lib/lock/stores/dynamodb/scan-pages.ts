// A table listed as a parallel Scan: SEGMENTS segments read side by side, one 1 MB page of each per listing page, so
// a big table lists in about a quarter of the round trips' wall time (DynamoDB serves the segments from different
// partitions). The page token carries each segment's LastEvaluatedKey; null marks a segment that is done.
import type { DynamoTable, Item } from './table';

/** Segments of a listing's parallel Scan (AWS suggests one per 2 GB; a lock table of 1 000 000 items is about 1 GB). */
export const SEGMENTS = 4;

type Segment = Item | null | 'start';

interface ScanPage {
  items: Item[];
  /** The next page's token; absent when every segment is done. */
  next?: string;
}

const encode = (s: Segment[]): string => Buffer.from(JSON.stringify(s)).toString('base64url');

function decode(token: string): Segment[] {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(token, 'base64url').toString());
  } catch {
    v = undefined;
  }
  if (!Array.isArray(v) || v.length === 0 || v.some((s) => s !== null && s !== 'start' && typeof s !== 'object'))
    throw Object.assign(new Error('Not a DynamoDB page token: list again from the first page (no token).'), {
      code: 'USAGE',
    });
  return v as Segment[];
}

/** One page of each segment not yet done, read in parallel. */
export async function scanPage(table: DynamoTable, token?: string): Promise<ScanPage> {
  const state: Segment[] = token ? decode(token) : Array<Segment>(SEGMENTS).fill('start');
  const pages = await Promise.all(
    state.map((s, i) =>
      s === null ? { items: [] as Item[], next: null } : table.scan(s === 'start' ? undefined : s, i, state.length),
    ),
  );
  const next: Segment[] = pages.map((p) => p.next ?? null);
  return { items: pages.flatMap((p) => p.items), ...(next.some((s) => s !== null) ? { next: encode(next) } : {}) };
}
