// What a caller may do, per lock: the grants that name them (their e-mail, its domain, their SSO groups, or their API
// token) added up. A scope is a predicate over lock addresses (lib/lock/address.ts), or EVERY_LOCK, said explicitly:
// no function takes a missing scope to mean every lock.
import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';
import { lockAddress } from '@/lib/lock/address';
import type { SourceSpec } from '@/lib/lock/stores';
import { env, type ConsoleEnv } from '../env';
import { currentGrants } from './access-file';
import { anyGlob, globMayMatchUnder, type GlobTest } from './glob';
import { allows, higher, subjectMatches, type Role } from './roles';

export interface Access {
  /** Who acts: the e-mail address, or the API token's name (the audit trail's actor). */
  actor: string;
  /** The highest role any grant gives (null: none at all). */
  role: Role | null;
  /** The globs of each role's grants. */
  grants: { role: Role; locks: string[] }[];
  /** An API token's access (no session, no cookie). */
  token?: boolean;
}

/** Every lock: a grant on "*", or the metrics token. Only ever given by name, never a default. */
export const EVERY_LOCK = Object.freeze({ everyLock: true as const });

/** A predicate over lock addresses with the globs it tests, or EVERY_LOCK. */
export type Scope = GlobTest | typeof EVERY_LOCK;

/** Whether `scope` is every lock. */
export const isEveryLock = (scope: Scope): scope is typeof EVERY_LOCK => scope === EVERY_LOCK;

function accessOfGrants(actor: string, grants: { role: Role; locks: string[] }[], token?: boolean): Access {
  const role = grants.reduce<Role | null>((r, g) => higher(r, g.role), null);
  return { actor, role, grants, ...(token ? { token: true } : {}) };
}

/** The access of a signed-in person: every grant naming their e-mail, its domain or one of their groups. */
export function accessOf(email: string, groups: readonly string[] = [], config: ConsoleEnv = env()): Access {
  const mine = currentGrants(config).grants.filter((g) => g.who.some((w) => subjectMatches(w, email, groups)));
  return accessOfGrants(
    email,
    mine.map((g) => ({ role: g.role, locks: g.locks })),
  );
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** The access of an API token, found by its sha256 in constant time; null for a token no grant lists, or expired. */
export function tokenAccess(token: string, config: ConsoleEnv = env(), now = Date.now()): Access | null {
  const given = sha256(token);
  let found: { name: string; role: Role; locks: string[]; expires?: string } | undefined;
  for (const t of currentGrants(config).tokens) {
    // every token compared, whatever matched before: the time taken does not tell which
    if (timingSafeEqual(given, Buffer.from(t.sha256, 'hex')) && !found) found = t;
  }
  if (!found || (found.expires !== undefined && Date.parse(found.expires) <= now)) return null;
  return accessOfGrants(found.name, [{ role: found.role, locks: found.locks }], true);
}

/** A reader of every lock that is no person's session or grant (the metrics token): every lock, by name. */
export function everyLockReader(actor: string): Access {
  return { actor, role: 'viewer', grants: [{ role: 'viewer', locks: ['*'] }], token: true };
}

/** The locks `access` may see with at least role `needed`. */
export function scopeOf(access: Access, needed: Role = 'viewer'): Scope {
  return anyGlob(access.grants.filter((g) => allows(g.role, needed)).flatMap((g) => g.locks)) ?? EVERY_LOCK;
}

/** Whether `address` is in `scope`. */
export const inScope = (scope: Scope, address: string) => isEveryLock(scope) || scope(address);

/** Whether some lock of `source` may be in the access's scope (the sources selector, audit trails). */
export function sourceInScope(access: Access, source: Pick<SourceSpec, 'id' | 'prefix'>): boolean {
  // every lock of the source has an address starting with its base and prefix
  const start = lockAddress(source, source.prefix);
  return access.grants.some((g) => g.locks.some((glob) => globMayMatchUnder(glob, start)));
}

/** What `access` may release at `address`: any lock, only a gone or expired one, or nothing. */
export function releaseRight(access: Access, address: string): 'any' | 'gone-or-expired' | null {
  if (inScope(scopeOf(access, 'operator'), address) && allows(access.role, 'operator')) return 'any';
  if (inScope(scopeOf(access, 'releaser'), address) && allows(access.role, 'releaser')) return 'gone-or-expired';
  return null;
}

/** A key that changes when the access does (a stream ends when its reader's grants change). */
export function accessKey(access: Access | null): string {
  return JSON.stringify(access ? [access.role, access.grants] : null);
}

/**
 * What `access` sees of the locks: which (scope), the sensitive fields of which (operator grants only), and which it
 * may release (operator grants: any; releaser grants: expired or gone).
 */
export function viewerOf(access: Access): {
  scope: Scope;
  sensitive: boolean | ((address: string) => boolean);
  release: (address: string, view: { health: string; verdict?: unknown }) => boolean;
} {
  const scope = scopeOf(access);
  const none = anyGlob([])!;
  const operator = allows(access.role, 'operator') ? scopeOf(access, 'operator') : none;
  const releaser = allows(access.role, 'releaser') ? scopeOf(access, 'releaser') : none;
  const release = (address: string, view: { health: string; verdict?: unknown }) =>
    inScope(operator, address) ||
    ((view.health === 'expired' || view.verdict === 'gone') && inScope(releaser, address));
  if (!allows(access.role, 'operator')) return { scope, sensitive: false, release };
  return { scope, sensitive: isEveryLock(operator) ? true : operator, release };
}
