// A holder's current query as a viewer sees it: every place a secret can sit is masked. One left-to-right pass over
// PostgreSQL's tokens, so a `--` inside a string is no comment and a quote inside a comment is no string.
import { maskTokens } from '../sql/mask';

// dollar-quoted body | string (E'', B'', X'', N'', U&'') | quoted identifier | -- comment | /* comment */ | number
const TOKENS =
  /\$([A-Za-z_]\w*)?\$[\s\S]*?(?:\$\1\$|$)|(?:[EeBbXxNn]|[Uu]&)?'(?:[^']|'')*'?|"(?:[^"]|"")*"?|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|(?<![\w$."])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?\b/g;

/** A query with its literals, comments and SET / PASSWORD values masked (`?`); identifiers and keywords kept. */
export function maskQuery(query: string): string {
  return maskTokens(query, TOKENS, '"');
}
