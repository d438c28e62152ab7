// A source URL carries its store's password (postgres://user:PASSWORD@host/db, redis://:PASSWORD@host): no message,
// log line or error names it, whether the URL is valid or mistyped (an unknown scheme, a missing `//`).

// user:password@ after the start, a `/` or a separator: the password part is replaced
const USERINFO = /(^|[\s"'/,=])([^\s/@:"',]*):([^\s@"'/]+)@/g;
// secrets passed as query parameters (?password=…, &sslkey=…)
const QUERY_SECRET = /([?&;](?:password|passwd|pwd|pass|secret|token|sslpassword|key)=)[^&\s"']*/gi;

/** The text with every URL password and secret query parameter replaced by `***`. */
export function redactUrl(text: string): string {
  return text.replace(USERINFO, '$1$2:***@').replace(QUERY_SECRET, '$1***');
}
