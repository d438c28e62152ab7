// next-auth: Google and generic OIDC sign-in for deployments, two credentials accounts in demo mode only.
// Roles are copied into the JWT for display, but every request re-derives them from the grants in force; the SSO
// groups are taken from the ID token at sign-in and kept in the session (which ends at its absolute limit).
import 'server-only';
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import GoogleProvider from 'next-auth/providers/google';
import { env, type ConsoleEnv } from '../env';
import { safeRedirect } from './return-path';
import { accessOf } from './access';
import { DEMO_ACCOUNTS } from './demo-accounts';
import { groupsOf } from './groups';
import type { Role } from './roles';
import { sessionIdentity } from './session-guard';
import { sessionRefused, signOutEverywhere } from './session-revocations';

export { DEMO_ACCOUNTS } from './demo-accounts';

declare module 'next-auth' {
  interface Session {
    role: Role | null;
    groups?: string[];
  }
}
declare module 'next-auth/jwt' {
  interface JWT {
    role?: Role | null;
    /** The SSO groups of the sign-in (OIDC_GROUPS_CLAIM), for grants naming "group:NAME". */
    groups?: string[];
    /** The session's id and sign-in time (lib/server/auth/session-guard.ts), stamped once, kept on every re-issue. */
    sid?: string;
    authAt?: number;
  }
}

/** The highest role the grants in force give an e-mail address and its groups (null: none, no access). */
function resolveRole(
  email: string | null | undefined,
  config: ConsoleEnv = env(),
  groups: readonly string[] = [],
): Role | null {
  return email ? accessOf(email, groups, config).role : null;
}

export function enabledProviders(config: ConsoleEnv = env()): { id: string; name: string }[] {
  const out: { id: string; name: string }[] = [];
  if (config.GOOGLE_CLIENT_ID) out.push({ id: 'google', name: 'Google' });
  if (config.OIDC_ISSUER) out.push({ id: 'oidc', name: 'Single sign-on' });
  if (config.LOCKBOARD_DEMO) out.push({ id: 'demo', name: 'Demo account' });
  return out;
}

function buildAuthOptions(): NextAuthOptions {
  const config = env();
  const providers: NextAuthOptions['providers'] = [];
  if (config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET) {
    providers.push(GoogleProvider({ clientId: config.GOOGLE_CLIENT_ID, clientSecret: config.GOOGLE_CLIENT_SECRET }));
  }
  if (config.OIDC_ISSUER && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET) {
    providers.push({
      id: 'oidc',
      name: 'Single sign-on',
      type: 'oauth',
      wellKnown: `${config.OIDC_ISSUER.replace(/\/$/, '')}/.well-known/openid-configuration`,
      authorization: { params: { scope: config.OIDC_SCOPES } },
      idToken: true,
      checks: ['pkce', 'state'],
      clientId: config.OIDC_CLIENT_ID,
      clientSecret: config.OIDC_CLIENT_SECRET,
      profile: (p: { sub: string; email?: string; name?: string }) => ({
        id: p.sub,
        email: p.email,
        name: p.name ?? p.email,
      }),
    });
  }
  if (config.LOCKBOARD_DEMO) {
    providers.push(
      CredentialsProvider({
        id: 'demo',
        name: 'Demo account',
        credentials: { email: { label: 'E-mail', type: 'email' }, password: { label: 'Password', type: 'password' } },
        authorize(credentials) {
          const account = DEMO_ACCOUNTS.find(
            (a) => a.email === credentials?.email && a.password === credentials?.password,
          );
          return account ? { id: account.email, email: account.email, name: account.role } : null;
        },
      }),
    );
  }
  return {
    secret: config.NEXTAUTH_SECRET,
    session: { strategy: 'jwt', maxAge: 8 * 3600 },
    pages: { signIn: '/login', error: '/login' },
    providers,
    callbacks: {
      // Fail closed: an identity on no allow-list, or whose provider does not assert a verified address, cannot
      // sign in at all (an unverified address would let anyone claim an allowed domain).
      signIn: ({ user, account, profile }) =>
        (resolveRole(user.email, env(), groupsOf(profile)) !== null &&
          (account?.provider === 'demo' || emailVerified(profile))) ||
        '/login?error=AccessDenied',
      // Only same-site destinations; a malformed callbackUrl goes to /locks instead of throwing.
      redirect: ({ url, baseUrl }) => safeRedirect(url, baseUrl),
      // groups are taken once, at sign-in (`profile` is only given then), and kept for the session's life
      jwt: ({ token, profile }) => {
        const groups = profile ? groupsOf(profile) : (token.groups ?? []);
        return { ...token, ...sessionIdentity(token), groups, role: resolveRole(token.email, env(), groups) };
      },
      // A signed-out or too old session is no session: pages send its holder to sign in again
      session: async ({ session, token }) =>
        (await sessionRefused(token)) !== null
          ? { expires: session.expires, role: null }
          : { ...session, role: resolveRole(token.email, env(), token.groups), groups: token.groups ?? [] },
    },
    // every replica refuses the session from then on (lib/server/auth/session-revocations.ts)
    events: { signOut: ({ token }) => signOutEverywhere(token) },
  };
}

/** Google and OIDC providers assert verification with the `email_verified` claim (boolean, or "true"). */
export function emailVerified(profile: unknown): boolean {
  const claim = (profile as { email_verified?: unknown } | undefined)?.email_verified;
  return claim === true || claim === 'true';
}

export { safeRedirect } from './return-path';

let cached: NextAuthOptions | undefined;
export function authOptions(): NextAuthOptions {
  cached ??= buildAuthOptions();
  return cached;
}
