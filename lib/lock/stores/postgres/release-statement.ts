// The one conditional statement per lock table that releases exactly the row version seen (1 row: released; 0: it
// changed). A unique-index row goes to its `released` history the way the seed's own `acquit` moves it: the row's
// `id` and `ins AS locked` copied (the seed's `released.id` has no default), ON CONFLICT DO NOTHING.
import { ident, qualified, type LockTable } from './tables';

export function releaseStatement(
  t: LockTable,
  /** The row version's fields (parseRowVersion with ROW_VERSIONS[t.kind]): as many as the kind has. */
  parts: string[],
  reason: string,
  operator: string,
): { text: string; values: unknown[] } {
  const q = qualified(t);
  switch (t.kind) {
    case 'lockboard-table':
      return {
        text: `WITH gone AS (DELETE FROM ${q} WHERE name = $1 AND token::text = $2 RETURNING name, token, identity, acquired_at)
               INSERT INTO ${ident(t.schema)}.lockboard_released (name, token, identity, acquired_at, released_at, problem, details)
               SELECT name, token, identity, acquired_at, now(), 'force-released', $3 FROM gone RETURNING 1`,
        values: [parts[0], parts[1], `by ${operator}: ${reason}`],
      };
    case 'unique-index':
      return uniqueIndexRelease(t, parts, `by ${operator}: ${reason}`);
    case 'shedlock':
      return {
        text: `UPDATE ${q} SET lock_until = timezone('utc', now()) WHERE name = $1 AND locked_by = $2 AND locked_at::text = $3 AND lock_until::text = $4 RETURNING 1`,
        values: parts,
      };
    case 'liquibase':
      return {
        text: `UPDATE ${q} SET locked = false, lockgranted = NULL, lockedby = NULL WHERE id::text = $1 AND locked AND coalesce(lockedby, '') = $2 AND coalesce(lockgranted::text, '') = $3 RETURNING 1`,
        values: parts,
      };
    case 'laravel':
      // Laravel's own release() is DELETE … WHERE key AND owner; the expiration pins the very lock seen
      return {
        text: `DELETE FROM ${q} WHERE "key"::text = $1 AND coalesce(owner, '') = $2 AND expiration::text = $3 RETURNING 1`,
        values: parts,
      };
    case 'db-scheduler':
      return {
        text: `UPDATE ${q} SET picked = false, picked_by = NULL, last_heartbeat = NULL, version = version + 1 WHERE task_name = $1 AND task_instance = $2 AND version::text = $3 AND picked RETURNING 1`,
        values: parts,
      };
  }
}

function uniqueIndexRelease(t: LockTable, parts: string[], details: string): { text: string; values: unknown[] } {
  const gone = `DELETE FROM ${qualified(t)} WHERE named::text = $1 AND pid::text = $2 AND ins::text = $3`;
  const values = parts.slice(0, 3);
  const h = t.released;
  if (!h) return { text: `${gone} RETURNING 1`, values };
  // copied from the row: its id when both tables have one, its ins as `locked` when the history has that column
  const copied: [string, string][] = [['named', 'named']];
  if (t.columns.includes('id') && h.columns.includes('id')) copied.unshift(['id', 'id']);
  if (h.columns.includes('locked')) copied.push(['locked', 'ins']);
  const into = [...copied.map(([c]) => c), 'problem', 'details'].map(ident).join(', ');
  const from = copied.map(([, c]) => ident(c)).join(', ');
  return {
    text: `WITH gone AS (${gone} RETURNING *),
           kept AS (INSERT INTO ${ident(t.schema)}.${ident(h.table)} (${into})
                    SELECT ${from}, 'force-released', $4 FROM gone ON CONFLICT DO NOTHING)
           SELECT 1 FROM gone`,
    values: [...values, details],
  };
}
