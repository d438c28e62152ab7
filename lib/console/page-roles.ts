// The role each console page needs, in one place: the pages check it (requireRole, mayOpen), the 403 page names it,
// and the header links only the pages the account may open.
import { allows, type Role } from '@/lib/server/auth/roles';

interface PageNeed {
  /** The page's name as the navigation shows it. */
  page: string;
  role: Role;
  /** The role must cover every lock ("*"), not only some (the webhooks: receivers and deliveries of every scope). */
  everyLock?: boolean;
}

const PAGES: Record<string, PageNeed> = {
  '/webhooks': { page: 'Webhooks', role: 'operator', everyLock: true },
  '/sources': { page: 'Sources', role: 'operator', everyLock: true },
  '/churn': { page: 'Churn & audit', role: 'viewer' },
  '/locks': { page: 'Locks', role: 'viewer' },
};

/** The pages of the header's navigation, in its order. */
export const NAV_PAGES = ['/locks', '/churn', '/webhooks', '/sources'] as const;

/**
 * Whether an account may open the page at `pathname`: its highest role allows the page's, and where the page needs
 * that role over every lock, `everyLockAs(role)` says the account's grants of that role cover "*".
 */
export function mayOpen(pathname: string, role: Role | null, everyLockAs: (role: Role) => boolean): boolean {
  const need = pageNeed(pathname);
  return allows(role, need.role) && (!need.everyLock || everyLockAs(need.role));
}

/** What the page at `pathname` needs (a lock's page is the Locks page's). */
export function pageNeed(pathname: string): PageNeed {
  const top = `/${pathname.split('/')[1] ?? ''}`;
  return PAGES[top] ?? PAGES['/locks']!;
}

/**
 * Why an account with no grant at all may open no page: the same on every page (the server renders it, with no need
 * of the address).
 */
export function noGrantReason(user: { email: string } | null): string {
  return `${user ? `${user.email} has` : 'This account has'} no grant: it is not on the Lockboard viewer or operator list. Every page needs at least the viewer role. Ask an administrator for a viewer grant in the access file (LOCKBOARD_ACCESS_FILE), then sign in again.`;
}

/** Why a signed-in account may not open a page, naming the role or grant it lacks. */
export function forbiddenReason(need: PageNeed, user: { email: string; role: Role | null } | null): string {
  if (!user?.role) return noGrantReason(user);
  const wanted = need.everyLock ? `the ${need.role} role over every lock ("*")` : `the ${need.role} role`;
  const ask = `Ask an administrator for ${article(need.role)} ${need.role} grant${need.everyLock ? ' on "*"' : ''} in the access file (LOCKBOARD_ACCESS_FILE), then sign in again.`;
  const have = user.role === need.role ? `${user.role} over some locks only` : `${article(user.role)} ${user.role}`;
  return `The ${need.page} page needs ${wanted}; ${user.email} is ${have}. ${ask}`;
}

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');
