// GET|POST /api/auth/* – next-auth sign-in, callback, session and sign-out endpoints
import NextAuth from 'next-auth';
import { authOptions } from '@/lib/server/auth';

function handler(req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(authOptions())(req, ctx);
}

export { handler as GET, handler as POST };
