// A SQL store's listing page token: the lock table a listing stands in and the key it stopped at, as base64url JSON.

/** Where a listing stands: the table it is in and the key it stopped at (none: the table's first page). */
export interface TablePosition {
  table: string;
  after?: unknown[];
}

export const encodePosition = (p: TablePosition): string => Buffer.from(JSON.stringify(p)).toString('base64url');

/** The position a token names; a token that is not one is a usage error naming the store (`PostgreSQL`, `MySQL`). */
export function decodePosition(token: string, storeLabel: string): TablePosition {
  let v: { table?: unknown; after?: unknown } | undefined;
  try {
    v = JSON.parse(Buffer.from(token, 'base64url').toString()) as typeof v;
  } catch {
    v = undefined;
  }
  if (!v || typeof v.table !== 'string' || (v.after !== undefined && !Array.isArray(v.after)))
    throw Object.assign(new Error(`Not a ${storeLabel} page token: list again from the first page (no token).`), {
      code: 'USAGE',
    });
  return { table: v.table, ...(v.after ? { after: v.after as unknown[] } : {}) };
}
