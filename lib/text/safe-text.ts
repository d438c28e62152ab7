// Text a lock's holder wrote (names, identity, host, purpose, reasons, queries) is shown, never obeyed: control, C1,
// bidi and zero-width characters are made visible (`\x1b`, `\u{202e}`) so a holder can neither drive a terminal
// (clear the screen, retitle the window, print over a real table) nor make two names look alike. Client-safe.

// C0 and DEL; C1; soft hyphen; Arabic letter mark; Mongolian vowel separator; zero-width, LRM/RLM; line and
// paragraph separators; bidi embeddings and overrides; word joiner and invisible operators; bidi isolates; BOM
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/u;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'gu');

/** The visible form of one unsafe character: `\x1b` below U+0100, else `\u{202e}`. */
function escapeChar(ch: string): string {
  const code = ch.codePointAt(0)!;
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

export function hasUnsafeText(text: string): boolean {
  return UNSAFE.test(text);
}

/** The text with every unsafe character escaped visibly; `keepNewlines` for messages that are several lines. */
export function escapeText(text: string, o: { keepNewlines?: boolean } = {}): string {
  return text.replace(UNSAFE_ALL, (ch) => (o.keepNewlines && ch === '\n' ? ch : escapeChar(ch)));
}

interface TextPart {
  text: string;
  /** The part is one unsafe character, `text` its escaped form. */
  unsafe: boolean;
  /** For unsafe parts, the character's code point, e.g. `U+200B`. */
  code?: string;
}

/** The text split into safe runs and unsafe characters (escaped), for a component that marks the latter. */
export function textParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let run = '';
  for (const ch of text) {
    if (!UNSAFE.test(ch)) {
      run += ch;
      continue;
    }
    if (run) parts.push({ text: run, unsafe: false });
    run = '';
    const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    parts.push({ text: escapeChar(ch), unsafe: true, code });
  }
  if (run) parts.push({ text: run, unsafe: false });
  return parts;
}
