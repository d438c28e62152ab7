// PostgreSQL's CREATE … IF NOT EXISTS does not serialise two sessions creating the same table at once: the one that
// loses fails with one of these codes although the table now exists (unique_violation on pg_type's index,
// duplicate_table, or duplicate_object: 'type "lockboard_claims" already exists'). Such a failure is the other
// replica's success.
const CREATED_BY_ANOTHER = new Set(['23505', '42P07', '42710']);

/** Whether a failed CREATE … IF NOT EXISTS lost the race to another session's CREATE of the same object. */
export function createdByAnother(err: unknown): boolean {
  return CREATED_BY_ANOTHER.has(String((err as { code?: unknown })?.code));
}
