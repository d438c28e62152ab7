// Roles from the allow-lists: exact e-mail addresses or "@domain" entries. Anyone else has no role (fail closed).
export type Role = 'viewer' | 'operator';

function matches(email: string, entries: string[]): boolean {
  const e = email.trim().toLowerCase();
  return entries.some((entry) => {
    const x = entry.trim().toLowerCase();
    return x.startsWith('@') ? e.endsWith(x) && e.indexOf('@') === e.length - x.length : e === x;
  });
}

export function roleFor(email: string | null | undefined, operators: string[], viewers: string[]): Role | null {
  if (!email) return null;
  if (matches(email, operators)) return 'operator';
  if (matches(email, viewers)) return 'viewer';
  return null;
}

export function allows(role: Role | null, needed: Role): boolean {
  return role === 'operator' || (role === 'viewer' && needed === 'viewer');
}
