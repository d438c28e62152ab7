// The access file's trouble, on every console page an operator sees: deleted (its grants withdrawn), or unusable
// (the last good grants in force until the grace ends, then withdrawn). Server component: nothing when in force.
import type { AccessFileState } from '@/lib/server/auth/access-file';

export function AccessFileNotice({ state }: { state: AccessFileState }) {
  if (state.state === 'ok') return null;
  const text =
    state.state === 'deleted'
      ? `${state.file} was deleted: every grant and token it gave is withdrawn until it is back.`
      : state.state === 'grace'
        ? `${state.problem} The last good grants stay in force until ${state.until}; then every grant and token of the file is withdrawn.`
        : `${state.problem} Its last good grants were withdrawn at ${state.until} (LOCKBOARD_ACCESS_GRACE): only LOCKBOARD_OPERATORS / LOCKBOARD_VIEWERS still apply.`;
  return (
    <p
      role="alert"
      data-testid="access-file-notice"
      className="mb-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
    >
      Access file: {text}
    </p>
  );
}
