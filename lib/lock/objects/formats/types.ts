// What a format module sees of an object, and what it says about it. Times are milliseconds on server time.

/** One object as listed (and, where a format needs it, its body). */
export interface ObjectView {
  name: string;
  /** Custom metadata, every value a string. */
  metadata: Record<string, string>;
  size: number;
  createdMs: number;
  updatedMs: number;
  temporaryHold: boolean;
  /** The body, when it was read (only for formats that need it and objects ≤ 64 KiB). */
  body?: Buffer;
  /** Fields the store's reader dropped for their type before any format saw them: named in the lock's note. */
  dropped?: string[];
}

/** A format's reading of an object it recognised. */
export interface FormatReading {
  /** The owner as the format names it. */
  identity?: string;
  /** Fields in the format's own terms, in display order. */
  details?: [label: string, value: string][];
  /** When the holder took the lock, by the format's own record (Terraform's `Created`): "Held since" follows it. */
  acquiredMs?: number;
  /** A released marker (the library keeps the object after release): shown as `free`. */
  released?: boolean;
  /** Server time after which the object is a released marker (the library's own rule, e.g. go-gcslock's nbf). */
  freeAt?: number;
  /** Server time at which the lock becomes stale, when the format has a rule for it. */
  staleAt?: number;
  /** The holder's refresh interval (stored or inferred), so a late refresh shows as `overdue`. */
  refreshMs?: number;
  ttlMs?: number;
  /** Why health could not be judged (an unreadable or implausible field). */
  note?: string;
  /** Fields of the body of the wrong type, ignored (`Who (an object)`): named in the lock's note. */
  dropped?: string[];
}

type ReleaseRule = 'delete' | 'clear-hold-then-delete';

export interface LockFormatModule {
  id: string;
  /** Human name, e.g. "Terraform state lock". */
  label: string;
  /** Whether recognising or describing this object needs its body (checked before the body is read). */
  needsBody?(view: ObjectView): boolean;
  /** The reading, or null when the object is not in this format. */
  read(view: ObjectView): FormatReading | null;
  release: ReleaseRule;
  /** A format whose holder writes no heartbeat: what is known of it and what would settle whether it is still there
   * (the verdict's clause, objects/signs.ts), e.g. "Terraform writes no heartbeat: only Who … is known". */
  noHeartbeat?(reading: FormatReading): string;
  /** What releasing does, for operators. */
  releaseNote: string;
}

export const MAX_BODY_BYTES = 64 * 1024;

/** A finite number from a metadata string, or undefined. */
export function numberOf(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** The body parsed as a JSON object, or undefined. */
export function jsonBody(view: ObjectView): Record<string, unknown> | undefined {
  if (!view.body) return undefined;
  try {
    const parsed = JSON.parse(view.body.toString('utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A scalar field as text; a field of another type (an object, a list) is pushed to `dropped`, never shown. */
export function stringField(
  obj: Record<string, unknown> | undefined,
  key: string,
  dropped?: string[],
): string | undefined {
  const v = obj?.[key];
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v !== undefined && v !== null) dropped?.push(`${key} (${Array.isArray(v) ? 'a list' : 'an object'})`);
  return undefined;
}

/** A detail's value by its label, from a format's reading. */
export const detailOf = (r: FormatReading, label: string): string | undefined =>
  r.details?.find(([l]) => l === label)?.[1];

/** Details without the empty ones. */
export function details(pairs: [string, string | undefined][]): [string, string][] {
  return pairs.filter((p): p is [string, string] => p[1] !== undefined && p[1] !== '');
}
