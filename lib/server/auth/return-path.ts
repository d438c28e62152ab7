// Where sign-in returns to: always a page of this console. The callback is parsed as a URL the way a browser will
// read it (tabs and newlines dropped, `\` as `/`), so `/\t/evil.example` is the other site it is, and the path kept
// is the parsed, percent-encoded one: any character is safe in the Location header.

const HOME = 'http://console.invalid';
const DEFAULT = '/locks';

/** A same-origin path (with query and fragment) to return to; anything else becomes /locks. */
export function safeReturnPath(raw: string | undefined | null): string {
  if (!raw || raw.length > 2048 || !raw.startsWith('/')) return DEFAULT;
  let url: URL;
  try {
    url = new URL(raw, HOME);
  } catch {
    return DEFAULT;
  }
  if (url.origin !== HOME) return DEFAULT;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** next-auth's redirect callback: a path or an absolute URL on the console's own origin, else /locks. */
export function safeRedirect(url: string, baseUrl: string): string {
  const base = baseUrl.replace(/\/$/, '');
  if (url.startsWith('/')) return `${base}${safeReturnPath(url)}`;
  try {
    const target = new URL(url);
    if (target.origin === new URL(base).origin) return target.href;
  } catch {
    // malformed: fall through
  }
  return `${base}${DEFAULT}`;
}
