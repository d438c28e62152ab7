// Keys that are not valid UTF-8 (#51): Redis keys are bytes, and a key a client wrote with bytes that are not UTF-8
// would reach Lockboard as text with U+FFFD in their place, which names no key. SCAN's keys are read as bytes; such a
// key is shown escaped (each byte that is not part of valid UTF-8 as `\xNN`, a backslash as `\\`), read and released
// by its exact bytes, and its escaped name (as `status` and `release` take it) leads back to the same bytes.
import { isUtf8 } from 'node:buffer';

const BACKSLASH = 0x5c;

/** The length of the valid UTF-8 sequence that starts at `i`, or 0 when the byte there starts none. */
function sequenceAt(b: Buffer, i: number): number {
  const lead = b[i]!;
  const n =
    lead < 0x80
      ? 1
      : lead >= 0xc2 && lead <= 0xdf
        ? 2
        : lead >= 0xe0 && lead <= 0xef
          ? 3
          : lead >= 0xf0 && lead <= 0xf4
            ? 4
            : 0;
  return n && i + n <= b.length && isUtf8(b.subarray(i, i + n)) ? n : 0;
}

/** A key's name as shown: its text when the bytes are UTF-8, else the escaped form. */
export function keyName(b: Buffer): string {
  if (isUtf8(b)) return b.toString('utf8');
  let out = '';
  for (let i = 0; i < b.length;) {
    const n = sequenceAt(b, i);
    if (n === 0 || b[i] === BACKSLASH) out += n === 0 ? `\\x${b[i]!.toString(16).padStart(2, '0')}` : '\\\\';
    else out += b.toString('utf8', i, i + n);
    i += Math.max(n, 1);
  }
  return out;
}

/** The exact bytes an escaped name stands for; null when `name` is no escaped name (then it is the key's text). */
export function keyBytes(name: string): Buffer | null {
  if (!name.includes('\\')) return null;
  const out: Buffer[] = [];
  let text = '';
  for (let i = 0; i < name.length; i++) {
    if (name[i] !== '\\') {
      text += name[i];
      continue;
    }
    const hex = /^x([0-9a-f]{2})/.exec(name.slice(i + 1, i + 4));
    if (name[i + 1] !== '\\' && !hex) return null;
    out.push(Buffer.from(text), Buffer.from([hex ? parseInt(hex[1]!, 16) : BACKSLASH]));
    text = '';
    i += hex ? 3 : 1;
  }
  const bytes = Buffer.concat([...out, Buffer.from(text)]);
  return isUtf8(bytes) ? null : bytes; // an escaped name only ever stands for bytes that are not UTF-8
}

/** SCAN's keys, read as bytes: each key's name, and the bytes of those whose names are escaped. */
export function namesOf(keys: Buffer[]): { names: string[]; bytes: Map<string, Buffer> } {
  const bytes = new Map<string, Buffer>();
  const names = keys.map((k) => {
    const name = keyName(k);
    if (!isUtf8(k)) bytes.set(name, k);
    return name;
  });
  return { names, bytes };
}
