// A lock's body is written by whoever can write the lock: every field is type-checked where it is read. A field of
// the wrong type is dropped and named in the lock's note, never passed on, so one malformed lock costs that lock's
// fields, never its source, a page or a command.

function kindOf(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

/** Reads typed fields of one untrusted JSON object and remembers the ones it had to drop. */
export class FieldReader {
  readonly dropped: string[] = [];

  constructor(private readonly obj: Record<string, unknown>) {}

  /** A string field (absent: undefined); any other type is dropped. */
  text(key: string): string | undefined {
    const v = this.obj[key];
    if (v === undefined) return undefined;
    if (typeof v === 'string') return v;
    this.dropped.push(`${key} (${kindOf(v)})`);
    return undefined;
  }

  /** A finite number, given as a number or a decimal string; anything else is dropped. */
  number(key: string): number | undefined {
    const v = this.obj[key];
    if (v === undefined) return undefined;
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (Number.isFinite(n)) return n;
    this.dropped.push(
      `${key} (${typeof v === 'string' ? `${JSON.stringify(v.slice(0, 40))}, not a number` : kindOf(v)})`,
    );
    return undefined;
  }

  /** What the lock's note says about the dropped fields, or undefined when none was. */
  note(): string | undefined {
    return droppedNote(this.dropped);
  }
}

export function droppedNote(dropped: string[]): string | undefined {
  return dropped.length
    ? `Ignored field${dropped.length === 1 ? '' : 's'} of the wrong type: ${dropped.join(', ')}.`
    : undefined;
}

/** The text parsed as a JSON object, or undefined (not JSON, or JSON that is not an object). */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Two notes as one sentence list (either may be absent). */
export function joinNotes(...notes: (string | undefined)[]): string | undefined {
  const all = notes.filter((n): n is string => Boolean(n));
  return all.length ? all.join(' ') : undefined;
}
