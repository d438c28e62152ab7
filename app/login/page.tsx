import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { LoginForm } from '@/components/login-form';
import { Logo } from '@/components/ui/logo';
import { authOptions, DEMO_ACCOUNTS, enabledProviders } from '@/lib/server/auth/auth';
import { env } from '@/lib/server/env';
import { safeReturnPath } from '@/lib/server/auth/session';

export const dynamic = 'force-dynamic';

const ERRORS: Record<string, string> = {
  AccessDenied:
    'This account has no grant (it is on no viewer, releaser or operator list), or its provider did not confirm the e-mail address is verified.',
  CredentialsSignin: 'Wrong e-mail or password.',
};

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string | string[]; callbackUrl?: string | string[] }>;
}) {
  const params = await searchParams;
  const callbackUrl = safeReturnPath(typeof params.callbackUrl === 'string' ? params.callbackUrl : undefined);
  const session = await getServerSession(authOptions());
  if (session?.user?.email) redirect(callbackUrl);
  const error = typeof params.error === 'string' ? params.error : undefined;
  const demo = env().LOCKBOARD_DEMO
    ? DEMO_ACCOUNTS.map(({ email, password, role, about }) => ({ email, password, role: `${role}: ${about}` }))
    : [];
  return (
    <main className="mx-auto mt-24 max-w-md space-y-6 p-6">
      <h1 className="text-2xl font-bold">
        <Logo /> Sign in to Lockboard
      </h1>
      {error && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900 dark:bg-red-950 dark:text-red-200">
          {ERRORS[error] ?? 'Sign-in failed. Try again.'}
        </p>
      )}
      <LoginForm providers={enabledProviders()} demoAccounts={demo} callbackUrl={callbackUrl} />
    </main>
  );
}
