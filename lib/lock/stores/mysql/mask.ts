// A holder's current statement as a viewer sees it, masked the way the PostgreSQL store masks a query (its SET and
// PASSWORD rules shared), over MySQL's tokens: strings in single or double quotes with backslash escapes and
// introducers (_utf8mb4'…', X'…', B'…', N'…'), backquoted names (kept), `#`, `-- ` and /* */ comments, hex and numbers.
import { maskTokens } from '../sql/mask';

const TOKENS =
  /`(?:[^`]|``)*`?|(?:_\w+|[XxBbNn])?'(?:[^'\\]|\\[\s\S]|'')*'?|"(?:[^"\\]|\\[\s\S]|"")*"?|#[^\n]*|--(?=\s|$)[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|\b0x[0-9a-f]+\b|(?<![\w$.`])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?\b/gi;

/** A statement with its literals, comments and SET / PASSWORD values masked (`?`); names and keywords kept. */
export function maskStatement(statement: string): string {
  return maskTokens(statement, TOKENS, '`');
}
