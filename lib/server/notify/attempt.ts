// One delivery attempt: a POST of the body with its signature, within a deadline (5 s), never following a redirect
// (a 3xx is a failed attempt naming only the host it pointed to). The URL's path and query (a Slack token) and the
// secret never appear in what it answers: errors name the host alone.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

const ATTEMPT_TIMEOUT_MS = 5_000;

export interface AttemptResult {
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Retry-After in milliseconds, when given (seconds or an HTTP date). */
  retryAfterMs?: number;
  /** Why it failed, without the URL's path or query. */
  error?: string;
}

export interface AttemptOptions {
  timeoutMs?: number;
  /** Extra trusted certificates (PEM), e.g. a test receiver's self-signed one. */
  ca?: string;
}

export function postOnce(
  url: string,
  body: string,
  headers: Record<string, string>,
  o: AttemptOptions = {},
): Promise<AttemptResult> {
  const u = new URL(url);
  const timeoutMs = o.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = send(
      u,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        ...(o.ca ? { ca: o.ca } : {}),
      },
      (res) => {
        res.resume(); // the answer's body is not read: only its status counts
        res.on('error', () => undefined);
        done(answerOf(res.statusCode ?? 0, res.headers, u.host));
      },
    );
    const timer = setTimeout(() => {
      done({ error: `${u.host} did not answer within ${timeoutMs / 1000} s` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => done({ error: `${u.host}: ${err.code ?? 'connection failed'}` }));
    req.end(body);
  });
}

function answerOf(status: number, headers: Record<string, string | string[] | undefined>, host: string): AttemptResult {
  if (status >= 300 && status < 400) {
    const location = String(headers.location ?? '');
    let to = 'elsewhere';
    try {
      to = new URL(location, `https://${host}`).host;
    } catch {}
    return { status, error: `redirected to ${to}: redirects are not followed` };
  }
  const retryAfterMs = retryAfter(headers['retry-after']);
  return {
    status,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(status >= 400 ? { error: `${host} answered ${status}` } : {}),
  };
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
export function retryAfter(raw: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
