// GET|POST /api/auth/* – next-auth sign-in, callback, session and sign-out endpoints
import NextAuth from 'next-auth';
import { NextRequest } from 'next/server';
import { authOptions } from '@/lib/server/auth/auth';
import { ApiError, errorResponse } from '@/lib/server/api-error';
import { readBodyCapped } from '@/lib/server/request-body';

/** Sign-in forms and sign-out posts are tiny forms: bodies are read with a cap before next-auth sees them. */
const AUTH_BODY_LIMIT = 16 * 1024;

type Context = { params: Promise<{ nextauth: string[] }> };

function GET(req: NextRequest, ctx: Context) {
  return NextAuth(authOptions())(req, ctx);
}

async function POST(req: NextRequest, ctx: Context) {
  let body: string;
  try {
    // next-auth's own pages post forms; anything else would reach its body parser and fail with a 500
    if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers.get('content-type') ?? '')) {
      throw new ApiError('unsupported_media_type', 'Send the form as application/x-www-form-urlencoded.');
    }
    body = await readBodyCapped(req, AUTH_BODY_LIMIT);
  } catch (err) {
    return errorResponse(err);
  }
  const buffered = new NextRequest(req.url, { method: 'POST', headers: req.headers, body });
  return NextAuth(authOptions())(buffered, ctx);
}

export { GET, POST };
