// The PostgreSQL audit trail: lockboard_audit (created if absent), read with the lock tables' own release histories;
// each row dated by the server (a trigger), never by a writer.
import type { AuditRecord } from '../../audit/record';
import { signAuditFields } from '../../audit/trust';
import type { Queryable } from './tables';
import { createdByAnother } from './concurrent-create';
import { findLockTables, ident } from './tables';

export class PostgresAuditTrail {
  private ready: Promise<void> | undefined;

  constructor(
    private readonly client: Queryable,
    private readonly schema: string,
    private readonly schemas: string[],
  ) {}

  /** Creates lockboard_audit if absent (a console without CREATE on the schema needs it created once by its owner). */
  private ensure(): Promise<void> {
    const table = `${ident(this.schema)}.lockboard_audit`;
    this.ready ??= this.client
      .query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [table])
      .then(async ({ rows }) => {
        if (!rows[0]?.t)
          await this.client
            .query(
              `CREATE TABLE IF NOT EXISTS ${table} (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(),
              event text NOT NULL, lock text NOT NULL, fields jsonb NOT NULL DEFAULT '{}')`,
            )
            .catch((err: unknown) => {
              if (!createdByAnother(err)) throw err; // another replica's first record made it at the same moment
            });
        await stampAt(this.client, this.schema);
      });
    this.ready.catch(() => (this.ready = undefined));
    return this.ready;
  }

  /** One event: a row of lockboard_audit. */
  async record(fields: Record<string, string>): Promise<string> {
    await this.ensure();
    const { event, lock, ...rest } = signAuditFields(fields);
    const { rows } = await this.client.query<{ id: string }>(
      `INSERT INTO ${ident(this.schema)}.lockboard_audit (event, lock, fields) VALUES ($1, $2, $3) RETURNING id::text`,
      [event, lock, JSON.stringify(rest)],
    );
    return `lockboard_audit#${rows[0]!.id}`;
  }

  /** The audit table, with the lock tables' own release histories (a failed job's problem and details). */
  async read(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    await this.ensure();
    const schema = ident(this.schema);
    const { rows } = await this.client.query<{
      id: string;
      at: Date;
      event: string;
      lock: string;
      fields: Record<string, string>;
    }>(
      `SELECT id::text, at, event, lock, fields FROM ${schema}.lockboard_audit
       WHERE at >= $1 AND at < $2 AND ($3::text IS NULL OR lock = $3) ORDER BY at`,
      [from, to, lock ?? null],
    );
    const out: AuditRecord[] = rows.map(
      (r) =>
        ({ ...r.fields, id: `audit#${r.id}`, at: r.at.toISOString(), event: r.event, lock: r.lock }) as AuditRecord,
    );
    for (const t of await findLockTables(this.client, this.schemas)) {
      const history = t.kind === 'lockboard-table' ? { table: 'lockboard_released', at: 'released_at' } : t.released;
      // a history without a release time (released_at, or the seed's `released`) has nowhere to place entries
      if (!history?.at) continue;
      const key = t.kind === 'lockboard-table' ? 'name' : 'named';
      const at = ident(history.at);
      const hist = await this.client
        .query<{ k: string; at: Date; problem: string | null; details: string | null }>(
          `SELECT ${key}::text AS k, ${at} AS at, problem, details FROM ${ident(t.schema)}.${ident(history.table)}
           WHERE ${at} >= $1 AND ${at} < $2`,
          [from, to],
        )
        .catch(() => ({ rows: [] as { k: string; at: Date; problem: string | null; details: string | null }[] }));
      for (const h of hist.rows) {
        const name = `${t.schema}.${t.table}/${h.k}`;
        if (lock && name !== lock) continue;
        if (h.problem === 'force-released') continue; // already in the audit table
        out.push({
          id: `${history.table}#${name}#${h.at.toISOString()}`,
          at: h.at.toISOString(),
          event: 'released',
          lock: name,
          outcome: h.problem ? 'error' : 'ok',
          ...(h.problem ? { error: `${h.problem}${h.details ? `: ${h.details}` : ''}` } : {}),
        } as AuditRecord);
      }
    }
    return out.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)); // stable: ties keep the order read
  }
}

/**
 * A row's time is the server's: a default alone is what a writer may override (`INSERT … (at) VALUES ('2020-…')`), so
 * a trigger sets `at` to clock_timestamp() on every insert and update. Created by whoever may (the table's owner:
 * the console when it created the table); where the trigger exists already, or this role may not create it, nothing
 * changes (the README says how the owner adds it).
 */
async function stampAt(client: Queryable, schema: string): Promise<void> {
  const s = ident(schema);
  const { rows } = await client.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM pg_trigger WHERE tgname = 'lockboard_audit_at' AND tgrelid = to_regclass($1)`,
    [`${s}.lockboard_audit`],
  );
  if (rows[0]?.n !== '0') return;
  await client
    .query(
      `CREATE OR REPLACE FUNCTION ${s}.lockboard_audit_stamp() RETURNS trigger LANGUAGE plpgsql AS
         $$ BEGIN NEW.at := clock_timestamp(); RETURN NEW; END $$;
       CREATE OR REPLACE TRIGGER lockboard_audit_at BEFORE INSERT OR UPDATE ON ${s}.lockboard_audit
         FOR EACH ROW EXECUTE FUNCTION ${s}.lockboard_audit_stamp()`,
    )
    .catch(() => undefined); // not the owner: the rows keep their default, as before
}
