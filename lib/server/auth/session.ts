// Pages decide access themselves, before reading any data: no session → sign-in with a return address; a role
// that does not allow the page (including no role: an address on no list, or removed since sign-in) → 403.
import 'server-only';
import { getServerSession } from 'next-auth';
import { forbidden, redirect } from 'next/navigation';
import { authOptions } from './auth';
import { accessOf, type Access } from './access';
import { safeReturnPath } from './return-path';
import { allows, type Role } from './roles';
import { boardOf, type Board } from '../board';

interface PageUser {
  email: string;
  role: Role;
  /** What the user may see and release, per lock (lib/server/auth/access.ts). */
  access: Access;
  /** The console within the user's grants: the page reads locks only through it (lib/server/board.ts). */
  board: Board;
}

/** The signed-in user with a role that allows `needed`; redirects to sign-in (returning to `returnTo`) or 403s. */
export async function requireRole(needed: Role, returnTo: string): Promise<PageUser> {
  const session = await getServerSession(authOptions());
  const email = session?.user?.email;
  if (!email) redirect(`/login?callbackUrl=${encodeURIComponent(safeReturnPath(returnTo))}`);
  const access = accessOf(email, session?.groups ?? []);
  const role = access.role;
  if (!role || !allows(role, needed)) forbidden();
  return { email, role, access, board: boardOf(access) };
}

/** The signed-in user for display (the layout's header); never an access decision. */
export async function currentUser(): Promise<{ email: string; role: Role | null; groups: string[] } | null> {
  const session = await getServerSession(authOptions());
  const email = session?.user?.email;
  const groups = session?.groups ?? [];
  return email ? { email, role: accessOf(email, groups).role, groups } : null;
}

export { safeReturnPath } from './return-path';
