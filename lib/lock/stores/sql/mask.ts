// What the SQL stores' masking of a holder's statement shares: each token masked as its kind says (identifiers kept),
// then SET and PASSWORD values, whatever the dialect's tokens (PostgreSQL's in postgres/mask.ts, MySQL's in mysql/mask.ts).

// SET [SESSION|LOCAL] name {=|TO} value, also inside ALTER ROLE … SET: an unquoted value is a secret as much as a
// quoted one (`SET app.api_key = abc123`)
const SET_VALUE = /(\bSET\s+(?:SESSION\s+|LOCAL\s+)?[\w."]+\s*(?:=|\bTO\b)\s*)(?!\?)([^\s;,]+)/gi;
// [ENCRYPTED] PASSWORD whatever follows (a literal, masked already, or anything else)
const PASSWORD = /(\bPASSWORD\s+)(?!\?)(?!NULL\b)([^\s;,]+)/gi;

/** One token masked; `identifier` is the character that quotes identifiers (kept): `"` in PostgreSQL, `` ` `` in MySQL. */
function maskToken(token: string, identifier: string): string {
  if (token.startsWith(identifier)) return token;
  if (token.startsWith('--')) return '-- ?';
  if (token.startsWith('#')) return '# ?';
  if (token.startsWith('/*')) return '/* ? */';
  return '?';
}

/** The same masking over another dialect's tokens (PostgreSQL's; MySQL's backslash escapes, `#` comments and backquoted names). */
export function maskTokens(query: string, tokens: RegExp, identifier: string): string {
  return query
    .replace(tokens, (t) => maskToken(t, identifier))
    .replace(SET_VALUE, '$1?')
    .replace(PASSWORD, '$1?');
}
