// A lock table row's version on the SQL stores (PostgreSQL, MySQL/MariaDB): the row's fields as read, as a JSON array
// of strings, so any character in any field (a "|" in a ShedLock name, a Laravel key, an owner) round-trips byte for
// byte. The older form, the fields joined by "|", is still read where it is unambiguous (exactly as many parts as the
// row has fields: no field held a "|"), so versions already shown and saved keep working.

/** What a row version of one kind of lock table holds: its fields' names, and a pattern for those that need one. */
export interface RowVersionKind {
  /** The tool's name for the row, e.g. `a ShedLock row`. */
  label: string;
  /** The fields in version order, as the tool names its columns: `NAME`, `LOCKED_BY`… */
  fields: string[];
  /** Fields that must match a pattern (an integer id or expiration), by index. */
  patterns?: Record<number, RegExp>;
}

/** The longest version a release accepts (the console's API takes at most 2 000 characters). */
const MAX = 2000;

/** The version of a row whose fields read `fields` (null as the empty string, as the release statements compare). */
export function rowVersion(fields: readonly unknown[]): string {
  return JSON.stringify(fields.map((f) => (f === null || f === undefined ? '' : String(f))));
}

/** A JSON array of strings, or null. */
function jsonFields(version: string): string[] | null {
  if (!version.startsWith('[')) return null;
  try {
    const v: unknown = JSON.parse(version);
    return Array.isArray(v) && v.every((f) => typeof f === 'string') ? v : null;
  } catch {
    return null;
  }
}

/** Whether `version` can be a row version of some kind (the store's check before it knows which row). */
export function looksLikeRowVersion(version: string): boolean {
  if (version.length > MAX) return false;
  const fields = jsonFields(version);
  return fields ? fields.length >= 2 : version.includes('|');
}

/** The fields of `version` for a row of `kind`, or null when it is not one (the older form only where unambiguous). */
export function parseRowVersion(version: string, kind: RowVersionKind): string[] | null {
  if (version.length > MAX) return null;
  const fields = jsonFields(version) ?? version.split('|');
  if (fields.length !== kind.fields.length) return null;
  const bad = Object.entries(kind.patterns ?? {}).some(([i, p]) => !p.test(fields[Number(i)]!));
  return bad ? null : fields;
}

/** How a version of `kind` looks, for the usage error: `a ShedLock row's version is ["NAME","LOCKED_BY",…]`. */
export function describeRowVersion(kind: RowVersionKind): string {
  return (
    `${kind.label}'s version is ${JSON.stringify(kind.fields)} (a JSON array of the row's fields as read), ` +
    'exactly as `lockboard status --json` shows it (quote it)'
  );
}

/** The readable label of a row version: its fields after the key, e.g. `row worker-1 · 2026-11-29 05:01:02.123`. */
export function rowVersionLabel(version: string): string {
  const fields = jsonFields(version) ?? version.split('|');
  return `row ${fields.slice(1).join(' · ') || fields[0] || version}`.slice(0, 80);
}
