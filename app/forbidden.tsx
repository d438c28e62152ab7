import Link from 'next/link';

// Rendered with status 403 when a page calls forbidden(): signed in, but on no list (or without the needed role).
export default function Forbidden() {
  return (
    <main className="mx-auto mt-24 max-w-md space-y-4 p-6">
      <h1 className="text-xl font-semibold">No access</h1>
      <p role="alert" className="rounded-md bg-red-50 p-4 text-red-900 dark:bg-red-950 dark:text-red-200">
        Your account is not on the Lockboard viewer or operator list. Ask an administrator to add you to
        LOCKBOARD_VIEWERS or LOCKBOARD_OPERATORS, then sign in again.
      </p>
      <Link href="/api/auth/signout" className="text-sm underline">
        Sign out
      </Link>
    </main>
  );
}
