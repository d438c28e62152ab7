// Delivery claims in PostgreSQL (one webhook delivery per event across console replicas): a row of lockboard_claims
// beside lockboard_audit, created if absent as the trail is, inserted ON CONFLICT DO NOTHING (true where this insert
// made the row). Its two columns match no lock table's shape: never listed. Rows older than two days (far past a
// delivery's hour of retries and a restarted replica's look-back) are deleted, at most once an hour per console.
import { ClaimPruner } from '../../claim-keeping';
import { ident, type Queryable } from './tables';

const KEEP = "interval '2 days'";

export class PostgresClaims {
  private ready: Promise<void> | undefined;
  // on the server's clock, two days as claim-keeping.ts keeps them
  private readonly pruner = new ClaimPruner(() =>
    this.client.query(`DELETE FROM ${this.table} WHERE at < now() - ${KEEP}`),
  );

  constructor(
    private readonly client: Queryable,
    private readonly schema: string,
  ) {}

  private get table(): string {
    return `${ident(this.schema)}.lockboard_claims`;
  }

  /**
   * Creates the table if absent (looked up first: a role without CREATE may use one its owner made); another replica
   * creating it at the same moment is no failure.
   */
  private ensure(): Promise<void> {
    const create = `CREATE TABLE IF NOT EXISTS ${this.table} (claim text PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())`;
    this.ready ??= this.client
      .query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [this.table])
      .then(({ rows }) => (rows[0]?.t ? undefined : this.client.query(create)))
      .then(
        () => undefined,
        (err: { code?: string }) => {
          // 23505 / 42P07: the concurrent CREATE of another replica won (IF NOT EXISTS does not serialise them)
          if (err.code === '42501') throw missing(this.table, create, err as Error);
          if (err.code !== '23505' && err.code !== '42P07') throw err;
        },
      );
    this.ready.catch(() => (this.ready = undefined));
    return this.ready;
  }

  async claim(key: string): Promise<boolean> {
    await this.ensure();
    const r = await this.client.query(`INSERT INTO ${this.table} (claim) VALUES ($1) ON CONFLICT DO NOTHING`, [key]);
    this.pruner.maybe();
    return (r.rowCount ?? 0) === 1;
  }
}

/** A role that may not create the claims table: what its owner runs once. */
const missing = (table: string, create: string, err: Error) =>
  Object.assign(
    new Error(`${table} (webhook delivery claims) cannot be created: ${err.message}; have its owner run ${create}`),
    {
      code: '42501',
    },
  );
