// Runs before every page: a per-request CSP nonce, passed to Next.js (which stamps it on its scripts) and sent.
import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy, createNonce } from '@/lib/server/csp';

export function proxy(request: NextRequest): NextResponse {
  const nonce = createNonce();
  const policy = contentSecurityPolicy(nonce, { development: process.env.NODE_ENV === 'development' });
  const headers = new Headers(request.headers);
  headers.set('Content-Security-Policy', policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('Content-Security-Policy', policy);
  return response;
}

export const config = {
  // Pages only: API routes get a fixed policy from next.config.mjs; static files need none.
  matcher: ['/((?!api/|_next/static/|_next/image|favicon.ico).*)'],
};
