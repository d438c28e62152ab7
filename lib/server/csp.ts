// The console's Content Security Policy: scripts only with this response's nonce (no 'unsafe-inline').

/** A fresh nonce for one response: 128 random bits, base64. */
export function createNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
}

/**
 * The policy for an HTML response. Next.js reads the nonce from the request's policy and puts it on its own inline
 * and bootstrap scripts; 'strict-dynamic' lets those load the app's chunks. Styles stay 'unsafe-inline': React style
 * attributes (charts, virtualised rows) cannot carry a nonce, and styles cannot run code.
 */
export function contentSecurityPolicy(nonce: string, { development = false } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}
