import Link from 'next/link';
import { ForbiddenReason } from '@/components/forbidden-reason';
import { currentUser } from '@/lib/server/auth/session';

// Rendered with status 403 when a page calls forbidden(): signed in, but on no list, or without the role the page
// needs (lib/console/page-roles.ts), which the message names.
export default async function Forbidden() {
  const user = await currentUser();
  return (
    <main className="mx-auto mt-24 max-w-md space-y-4 p-6">
      <h1 className="text-xl font-semibold">No access</h1>
      <ForbiddenReason user={user && { email: user.email, role: user.role }} />
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
