// Lockboard's lock on PostgreSQL: the unique-index design done right. A row per held lock names the holder's backend
// (pid and backend start to the microsecond, so a reused pid is never mistaken for the holder); liveness is the
// holder's own connection (no TTL to guess); a dead holder's row is taken over in the same INSERT … ON CONFLICT
// statement; the fencing token comes from a sequence; a release records the outcome (and the problem and details when
// the block threw) in lockboard_released, beside the locks. The lock holds as long as the given connection lives.
import { PolledLock } from '../sql/polled-lock';
import type { Queryable } from './tables';
import { ident } from './tables';

/** What a held lock needs of the acquire's options. */
interface PgLockSettings {
  client: Queryable;
  name: string;
  schema: string;
  /** How often the holder checks its row is still there (an operator may have released it); default 5 s. */
  checkIntervalMs?: number;
}

/** `lockboard postgres init`: Lockboard's own tables (never anyone else's), created only if absent. */
export async function initLockTables(db: Queryable, schema = 'public'): Promise<void> {
  const s = ident(schema);
  await db.query(`CREATE TABLE IF NOT EXISTS ${s}.lockboard_locks (
    name text PRIMARY KEY, pid integer NOT NULL, backend_us text NOT NULL, identity text NOT NULL, host text,
    purpose text, token bigint NOT NULL, acquired_at timestamptz NOT NULL DEFAULT now())`);
  await db.query(`CREATE TABLE IF NOT EXISTS ${s}.lockboard_released (
    name text NOT NULL, token bigint NOT NULL, identity text, acquired_at timestamptz, released_at timestamptz NOT NULL DEFAULT now(),
    problem text, details text)`);
  await db.query(`CREATE SEQUENCE IF NOT EXISTS ${s}.lockboard_fence`);
}

export class PgLock extends PolledLock<{ problem: string; details: string }> {
  protected readonly goneDetail = 'its row was released';

  constructor(
    private readonly o: PgLockSettings,
    fencingToken: string,
    readonly tookOver: boolean,
  ) {
    super(o.name, fencingToken, o.checkIntervalMs);
  }

  protected async stillOurs(): Promise<boolean> {
    const { rowCount } = await this.o.client.query(
      `SELECT 1 FROM ${ident(this.o.schema)}.lockboard_locks WHERE name = $1 AND token::text = $2`,
      [this.o.name, this.fencingToken],
    );
    return Boolean(rowCount);
  }

  /** Deletes our row and records the release (with the problem and details when the work failed), in one statement. */
  protected async releaseOurs(failure?: { problem: string; details: string }): Promise<boolean> {
    const s = ident(this.o.schema);
    const { rowCount } = await this.o.client.query(
      `WITH gone AS (DELETE FROM ${s}.lockboard_locks WHERE name = $1 AND token::text = $2 RETURNING name, token, identity, acquired_at)
       INSERT INTO ${s}.lockboard_released (name, token, identity, acquired_at, problem, details)
       SELECT name, token, identity, acquired_at, $3, $4 FROM gone`,
      [this.o.name, this.fencingToken, failure?.problem ?? null, failure?.details ?? null],
    );
    return Boolean(rowCount);
  }
}
