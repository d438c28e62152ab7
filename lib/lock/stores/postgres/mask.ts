// A holder's current query as a viewer sees it: every place a secret can sit is masked. One left-to-right pass over
// PostgreSQL's tokens, so a `--` inside a string is no comment and a quote inside a comment is no string.

// dollar-quoted body | string (E'', B'', X'', N'', U&'') | quoted identifier | -- comment | /* comment */ | number
const TOKENS =
  /\$([A-Za-z_]\w*)?\$[\s\S]*?(?:\$\1\$|$)|(?:[EeBbXxNn]|[Uu]&)?'(?:[^']|'')*'?|"(?:[^"]|"")*"?|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|(?<![\w$."])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?\b/g;

// SET [SESSION|LOCAL] name {=|TO} value, also inside ALTER ROLE … SET: an unquoted value is a secret as much as a
// quoted one (`SET app.api_key = abc123`)
const SET_VALUE = /(\bSET\s+(?:SESSION\s+|LOCAL\s+)?[\w."]+\s*(?:=|\bTO\b)\s*)(?!\?)([^\s;,]+)/gi;
// [ENCRYPTED] PASSWORD whatever follows (a literal, masked already, or anything else)
const PASSWORD = /(\bPASSWORD\s+)(?!\?)(?!NULL\b)([^\s;,]+)/gi;

/** One token masked; `identifier` is the character that quotes identifiers (kept): `"` here, `` ` `` in MySQL. */
function maskToken(token: string, identifier: string): string {
  if (token.startsWith(identifier)) return token;
  if (token.startsWith('--')) return '-- ?';
  if (token.startsWith('#')) return '# ?';
  if (token.startsWith('/*')) return '/* ? */';
  return '?';
}

/** A query with its literals, comments and SET / PASSWORD values masked (`?`); identifiers and keywords kept. */
export function maskQuery(query: string): string {
  return maskTokens(query, TOKENS, '"');
}

/** The same masking over another dialect's tokens (MySQL's: backslash escapes, `#` comments, backquoted names). */
export function maskTokens(query: string, tokens: RegExp, identifier: string): string {
  return query
    .replace(tokens, (t) => maskToken(t, identifier))
    .replace(SET_VALUE, '$1?')
    .replace(PASSWORD, '$1?');
}
