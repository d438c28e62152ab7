'use client';
// The 403 page's reason: the page asked for (its address) and the role or grant it needs that the account lacks.
import { usePathname } from 'next/navigation';
import { forbiddenReason, pageNeed } from '@/lib/console/page-roles';
import type { Role } from '@/lib/server/auth/roles';

export function ForbiddenReason({ user }: { user: { email: string; role: Role | null } | null }) {
  const need = pageNeed(usePathname() ?? '/locks');
  return (
    <p
      role="alert"
      data-testid="forbidden-reason"
      className="rounded-md bg-red-50 p-4 text-red-900 dark:bg-red-950 dark:text-red-200"
    >
      {forbiddenReason(need, user)}
    </p>
  );
}
