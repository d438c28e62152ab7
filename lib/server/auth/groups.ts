// The SSO groups of a sign-in: the OIDC_GROUPS_CLAIM claim (default `groups`) of the ID token, an array of names or
// one name. Bounded: the session cookie carries them (Entra ID sends at most 200, then an overage claim instead).
import 'server-only';
import { env } from '../env';

const MAX_GROUPS = 200;
const MAX_NAME = 256;

/** The groups a provider's profile asserts (none for Google, which sends no groups claim). */
export function groupsOf(profile: unknown, claim: string = env().OIDC_GROUPS_CLAIM): string[] {
  const raw = (profile as Record<string, unknown> | undefined)?.[claim];
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  return [
    ...new Set(list.filter((g): g is string => typeof g === 'string' && g.length > 0 && g.length <= MAX_NAME)),
  ].slice(0, MAX_GROUPS);
}
