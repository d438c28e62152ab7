import Link from 'next/link';
import type { ReactNode } from 'react';
import { SignOutButton } from '@/components/sign-out-button';
import { Logo } from '@/components/ui/logo';
import { currentUser } from '@/lib/server/auth/session';
import { AccessFileNotice } from '@/components/access-file-notice';
import { accessFileState } from '@/lib/server/auth/access-file';
import { accessOf, isEveryLock, scopeOf } from '@/lib/server/auth/access';
import { mayOpen, NAV_PAGES, pageNeed } from '@/lib/console/page-roles';
import type { Role } from '@/lib/server/auth/roles';

/** Whether the user's grants of a role cover every lock (a page such as Webhooks needs that). */
const everyLockOf =
  (user: { email: string; groups: string[] }) =>
  (role: Role): boolean =>
    isEveryLock(scopeOf(accessOf(user.email, user.groups), role));

export const dynamic = 'force-dynamic';

// Display only: every page decides access itself (requireRole) before it reads any data; the header links only the
// pages the user may open (lib/console/page-roles.ts mayOpen, as the pages decide).
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  return (
    <div className="mx-auto max-w-[110rem] px-4 py-4">
      <header className="mb-6 flex flex-wrap items-center gap-6 border-b border-zinc-200 pb-3 dark:border-zinc-800">
        <Link prefetch={false} href="/locks" className="text-lg font-bold">
          <Logo /> Lockboard
        </Link>
        <nav aria-label="Main" className="flex gap-4 text-sm">
          {user &&
            NAV_PAGES.filter((path) => mayOpen(path, user.role, everyLockOf(user))).map((path) => (
              <Link key={path} prefetch={false} href={path} className="hover:underline">
                {pageNeed(path).page}
              </Link>
            ))}
        </nav>
        <div className="ml-auto flex items-center gap-3 text-sm">
          {user && (
            <>
              <span data-testid="whoami">
                {user.email} · <strong>{user.role ?? 'no access'}</strong>
              </span>
              {user.groups.length > 0 && (
                <span data-testid="groups" className="text-gray-500" title={user.groups.join(', ')}>
                  groups: {user.groups.slice(0, 5).join(', ')}
                  {user.groups.length > 5 ? ` +${user.groups.length - 5}` : ''}
                </span>
              )}
              <SignOutButton />
            </>
          )}
        </div>
      </header>
      {user?.role === 'operator' && <AccessFileNotice state={accessFileState()} />}
      <main>{children}</main>
    </div>
  );
}
