import Link from 'next/link';
import { ForbiddenReason } from '@/components/forbidden-reason';
import { currentUser } from '@/lib/server/auth/session';
import { noGrantReason } from '@/lib/console/page-roles';

// Rendered with status 403 when a page calls forbidden(): signed in, but on no list, or without the role the page
// needs (lib/console/page-roles.ts), which the message names.
export default async function Forbidden() {
  const user = await currentUser();
  return (
    <main className="mx-auto mt-24 max-w-md space-y-4 p-6">
      <h1 className="text-xl font-semibold">No access</h1>
      {user?.role ? (
        <ForbiddenReason user={{ email: user.email, role: user.role }} />
      ) : (
        // no grant at all: the same words on every page, in the server's payload too
        <p
          role="alert"
          data-testid="forbidden-reason"
          className="rounded-md bg-red-50 p-4 text-red-900 dark:bg-red-950 dark:text-red-200"
        >
          {noGrantReason(user)}
        </p>
      )}
      <p className="flex gap-4 text-sm">
        {user?.role && (
          <Link prefetch={false} href="/locks" className="underline">
            Back to the locks
          </Link>
        )}
        <Link href="/api/auth/signout" className="underline">
          Sign out
        </Link>
      </p>
    </main>
  );
}
