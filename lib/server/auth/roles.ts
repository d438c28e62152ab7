// Roles and who holds one: grants name e-mail addresses, "@domain" entries and SSO groups ("group:NAME").
// `viewer` sees; `releaser` may also release a lock that is gone or expired; `operator` may release any lock.
export const ROLES = ['viewer', 'releaser', 'operator'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 0, releaser: 1, operator: 2 };

/** Whether `subject` (an e-mail, "@domain" or "group:NAME") names the holder of `email` and `groups`. */
export function subjectMatches(subject: string, email: string | null | undefined, groups: readonly string[]): boolean {
  const x = subject.trim();
  if (x.startsWith('group:')) return groups.includes(x.slice('group:'.length));
  if (!email) return false;
  const e = email.trim().toLowerCase();
  const s = x.toLowerCase();
  return s.startsWith('@') ? e.endsWith(s) && e.indexOf('@') === e.length - s.length : e === s;
}

/** The higher of two roles (null: none). */
export function higher(a: Role | null, b: Role | null): Role | null {
  if (!a) return b;
  if (!b) return a;
  return RANK[a] >= RANK[b] ? a : b;
}

/** Whether `role` includes what `needed` allows. */
export function allows(role: Role | null, needed: Role): boolean {
  return role !== null && RANK[role] >= RANK[needed];
}

/** The older allow-lists' role of an address (kept for callers that only have the lists). */
export function roleFor(email: string | null | undefined, operators: string[], viewers: string[]): Role | null {
  if (!email) return null;
  if (operators.some((o) => subjectMatches(o, email, []))) return 'operator';
  if (viewers.some((v) => subjectMatches(v, email, []))) return 'viewer';
  return null;
}
