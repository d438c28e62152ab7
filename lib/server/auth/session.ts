// Pages decide access themselves, before reading any data: no session → sign-in with a return address; a role
// that does not allow the page (including no role: an address on no list, or removed since sign-in) → 403.
import 'server-only';
import { getServerSession } from 'next-auth';
import { forbidden, redirect } from 'next/navigation';
import { authOptions, resolveRole } from './auth';
import { safeReturnPath } from './return-path';
import { allows, type Role } from './roles';

export interface PageUser {
  email: string;
  role: Role;
}

/** The signed-in user with a role that allows `needed`; redirects to sign-in (returning to `returnTo`) or 403s. */
export async function requireRole(needed: Role, returnTo: string): Promise<PageUser> {
  const session = await getServerSession(authOptions());
  const email = session?.user?.email;
  if (!email) redirect(`/login?callbackUrl=${encodeURIComponent(safeReturnPath(returnTo))}`);
  const role = resolveRole(email);
  if (!role || !allows(role, needed)) forbidden();
  return { email, role };
}

/** The signed-in user for display (the layout's header); never an access decision. */
export async function currentUser(): Promise<{ email: string; role: Role | null } | null> {
  const session = await getServerSession(authOptions());
  const email = session?.user?.email;
  return email ? { email, role: resolveRole(email) } : null;
}

export { safeReturnPath } from './return-path';
