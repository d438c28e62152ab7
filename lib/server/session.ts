// Pages: require a session on the server (sign-in redirect) and derive the role from the allow-lists.
import 'server-only';
import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { authOptions, resolveRole } from './auth';
import type { Role } from './roles';

export interface PageUser {
  email: string;
  role: Role | null;
}

export async function requireUser(): Promise<PageUser> {
  const session = await getServerSession(authOptions());
  const email = session?.user?.email;
  if (!email) redirect('/login');
  return { email, role: resolveRole(email) };
}
