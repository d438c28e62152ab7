// The stores as help pages name them, generated from the registry: a store added there appears in every help page.
import { STORES } from '../lock/stores';

/** "Cloud Storage, S3, Redis, PostgreSQL and DynamoDB". */
export const STORE_NAMES = STORES.map((s) => s.label)
  .join(', ')
  .replace(/, ([^,]*)$/, ' and $1');

/** One indented line per store. */
function perStore(indent: string, line: (s: (typeof STORES)[number]) => string): string {
  return STORES.map((s) => `${indent}${line(s)}`).join('\n');
}

/** Every store's source form with its name, one per line. */
export const SOURCE_LINES = (indent: string) =>
  perStore(indent, (s) => `${s.form}  (${s.label}${s.credentials ? `; credentials: ${s.credentials}` : ''})`);

/** Every store's version shape, one per line (what `release --version` takes). */
export const VERSION_LINES = (indent: string) => perStore(indent, (s) => `${s.label}: ${s.versionShape.describe}`);
