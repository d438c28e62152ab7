// Runs before every page and API route. Pages get a per-request CSP nonce (passed to Next.js, which stamps it on its
// scripts). Any path with a malformed %-escape is answered 400 here, before Next.js fails to decode it with a 500.
import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy, createNonce } from '@/lib/server/csp';

export function proxy(request: NextRequest): NextResponse {
  if (!decodable(request.nextUrl.pathname)) {
    return NextResponse.json(
      {
        error: {
          code: 'bad_request',
          message: 'The URL has a malformed %-escape; encode lock names with encodeURIComponent.',
        },
      },
      { status: 400, headers: { 'cache-control': 'no-store' } },
    );
  }
  // API routes get a fixed policy from next.config.mjs.
  if (request.nextUrl.pathname.startsWith('/api/')) return NextResponse.next();
  const nonce = createNonce();
  const policy = contentSecurityPolicy(nonce, { development: process.env.NODE_ENV === 'development' });
  const headers = new Headers(request.headers);
  headers.set('Content-Security-Policy', policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('Content-Security-Policy', policy);
  return response;
}

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export const config = {
  // Static files need none of this.
  matcher: ['/((?!_next/static/|_next/image|favicon.ico).*)'],
};
