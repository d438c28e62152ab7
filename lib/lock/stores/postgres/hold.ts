// Holds on PostgreSQL: a ShedLock row taken with ShedLock's own statement (INSERT … ON CONFLICT (name) DO UPDATE …
// WHERE lock_until <= now, its PostgreSQL provider's), `locked_by` naming the hold (owner, end, reason) and
// `lock_until` its end: ShedLock's contenders skip the task until then, and the row frees itself at lock_until.
import type { Client } from 'pg';
import { LockOptionsError } from '../../errors';
import type { StoreHolds } from '../../hold-types';
import { sessionHold, shedlockHold, shedlockOwner } from '../../hold-shedlock';
import type { OpenOptions, SourceSpec } from '../types';

const SHEDLOCK_HOLD = shedlockHold((name) => /^[^/]+\.[^/]+\//.test(name));

type Connect = (
  spec: SourceSpec,
  o: Pick<OpenOptions, 'role'>,
  session?: boolean,
) => Promise<{ client: unknown; close: () => Promise<unknown> }>;

interface Columns {
  byMax: number | null;
  untilType: string;
}

/** `schema.table/name` of a ShedLock table, with its columns' limits; a usage error for any other table. */
async function shedlockTable(db: Client, lockName: string): Promise<{ table: string; key: string } & Columns> {
  const m = /^([^./]+)\.([^/]+)\/(.+)$/s.exec(lockName);
  if (!m) throw new LockOptionsError(`Expected SCHEMA.TABLE/NAME of a ShedLock table, got "${lockName}".`);
  const [, schema, table, key] = m as unknown as [string, string, string, string];
  const { rows } = await db.query<{ column_name: string; data_type: string; character_maximum_length: number | null }>(
    `SELECT lower(column_name::text) AS column_name, data_type, character_maximum_length
     FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2`,
    [schema, table],
  );
  const col = (c: string) => rows.find((r) => r.column_name === c);
  if (!['name', 'lock_until', 'locked_at', 'locked_by'].every(col))
    throw new LockOptionsError(`${schema}.${table} is no ShedLock table (name, lock_until, locked_at, locked_by).`);
  const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;
  return {
    table: `${ident(schema)}.${ident(table)}`,
    key,
    byMax: col('locked_by')!.character_maximum_length,
    untilType: col('lock_until')!.data_type,
  };
}

export function postgresHolds(connect: Connect): StoreHolds {
  return {
    formats: [SHEDLOCK_HOLD, sessionHold('advisory', 'A PostgreSQL advisory lock', 'advisory:')],
    async place(spec, o, plan) {
      const { client, close } = await connect(spec, o, true);
      const db = client as Client;
      try {
        const t = await shedlockTable(db, plan.name);
        const owner = shedlockOwner(plan, t.byMax);
        // a timestamp without time zone holds UTC, as ShedLock writes it (timezone('utc', now()))
        const at = (p: string) =>
          t.untilType.includes('without')
            ? `(to_timestamp(${p} / 1000.0) AT TIME ZONE 'UTC')`
            : `to_timestamp(${p} / 1000.0)`;
        const now = t.untilType.includes('without') ? "timezone('utc', now())" : 'now()';
        const { rowCount } = await db.query(
          `INSERT INTO ${t.table} (name, lock_until, locked_at, locked_by) VALUES ($1, ${at('$2')}, ${now}, $3)
           ON CONFLICT (name) DO UPDATE SET lock_until = EXCLUDED.lock_until, locked_at = EXCLUDED.locked_at,
             locked_by = EXCLUDED.locked_by WHERE ${t.table}.lock_until <= ${now}`,
          [t.key, plan.untilMs, owner],
        );
        return rowCount === 1;
      } finally {
        await close();
      }
    },
  };
}
