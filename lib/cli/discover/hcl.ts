// Just enough HCL for Terraform's backend blocks: comments dropped, `backend "TYPE" { … }` blocks found with their
// top-level attributes (strings, numbers, booleans), nested blocks (assume_role { … }) skipped. A `-backend-config`
// file (`*.tfbackend`) is the same attributes without a block.

export type Attributes = Record<string, string>;

interface BackendBlock {
  type: string;
  attributes: Attributes;
}

/** The text without comments (`#`, `//`, `/* … *\/`); strings are kept as they are. */
function withoutComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (ch === '#' || (ch === '/' && text[i + 1] === '/')) {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
    } else out += ch;
  }
  return out;
}

/** The index just past the string starting at `at` (a `"`), escapes honoured. */
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  while (i < text.length && text[i] !== '"' && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
  return Math.min(text.length, i + 1);
}

/** The index of the `}` closing the block whose `{` is at `open` (or the text's end). */
function blockEnd(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '"') i = stringEnd(text, i) - 1;
    else if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return text.length;
}

/** `key = value` lines at the body's own level (values of nested blocks and maps are not its attributes). */
export function attributesOf(body: string): Attributes {
  const attributes: Attributes = {};
  let depth = 0;
  for (const line of body.split('\n')) {
    if (depth === 0) {
      const m = /^\s*([A-Za-z_][\w-]*)\s*=\s*("(?:[^"\\]|\\.)*"|true|false|-?\d+(?:\.\d+)?)\s*$/.exec(line);
      if (m) attributes[m[1]!] = m[2]!.startsWith('"') ? (JSON.parse(m[2]!) as string) : m[2]!;
    }
    const bare = line.replace(/"(?:[^"\\]|\\.)*"/g, '""');
    depth += (bare.match(/\{/g) ?? []).length - (bare.match(/\}/g) ?? []).length;
  }
  return attributes;
}

/** Every `backend "TYPE" { … }` block of a .tf file's text. */
export function backendBlocks(source: string): BackendBlock[] {
  const text = withoutComments(source);
  const blocks: BackendBlock[] = [];
  const re = /\bbackend\s+"([A-Za-z0-9_-]+)"\s*\{/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const open = m.index + m[0].length - 1;
    const end = blockEnd(text, open);
    blocks.push({ type: m[1]!, attributes: attributesOf(text.slice(open + 1, end)) });
    re.lastIndex = end;
  }
  return blocks;
}
