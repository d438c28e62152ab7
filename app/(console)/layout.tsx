import Link from 'next/link';
import type { ReactNode } from 'react';
import { SignOutButton } from '@/components/sign-out-button';
import { Logo } from '@/components/ui/logo';
import { currentUser } from '@/lib/server/auth/session';
import { AccessFileNotice } from '@/components/access-file-notice';
import { accessFileState } from '@/lib/server/auth/access-file';

export const dynamic = 'force-dynamic';

// Display only: every page decides access itself (requireRole) before it reads any data.
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  return (
    <div className="mx-auto max-w-[110rem] px-4 py-4">
      <header className="mb-6 flex flex-wrap items-center gap-6 border-b border-zinc-200 pb-3 dark:border-zinc-800">
        <Link prefetch={false} href="/locks" className="text-lg font-bold">
          <Logo /> Lockboard
        </Link>
        <nav aria-label="Main" className="flex gap-4 text-sm">
          <Link prefetch={false} href="/locks" className="hover:underline">
            Locks
          </Link>
          <Link prefetch={false} href="/churn" className="hover:underline">
            Churn &amp; audit
          </Link>
          {user?.role === 'operator' && (
            <Link prefetch={false} href="/webhooks" className="hover:underline">
              Webhooks
            </Link>
          )}
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
