// Delivery claims in PostgreSQL (one webhook delivery per event across console replicas): a row of lockboard_claims
// beside lockboard_audit, created if absent as the trail is, inserted ON CONFLICT DO NOTHING (true where this insert
// made the row). Its two columns match no lock table's shape: never listed. Rows older than two days (far past a
// delivery's hour of retries and a restarted replica's look-back) are deleted, at most once an hour per console.
// As leases (claim-lease.ts) the row's `lease` column holds the lease, inserted ON CONFLICT DO NOTHING and replaced by
// one UPDATE … WHERE lease = <the lease read> (its text is its version); the column is added to an older table once.
import type { ClaimRecords } from '../../claim-lease';
import { ClaimPruner } from '../../claim-keeping';
import { createdByAnother } from './concurrent-create';
import { ident, type Queryable } from './tables';

const KEEP = "interval '2 days'";

export class PostgresClaims implements ClaimRecords {
  private ready: Promise<void> | undefined;
  private leased: Promise<void> | undefined;
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
    const create = `CREATE TABLE IF NOT EXISTS ${this.table} (claim text PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), lease text)`;
    this.ready ??= this.client
      .query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [this.table])
      .then(({ rows }) => (rows[0]?.t ? undefined : this.client.query(create)))
      .then(
        () => undefined,
        (err: { code?: string }) => {
          if (err.code === '42501') throw missing(this.table, create, err as Error);
          if (!createdByAnother(err)) throw err;
        },
      );
    this.ready.catch(() => (this.ready = undefined));
    return this.ready;
  }

  /** The `lease` column, added to a table made before leases (once per console; its owner may have to run it). */
  private ensureLease(): Promise<void> {
    const alter = `ALTER TABLE ${this.table} ADD COLUMN IF NOT EXISTS lease text`;
    this.leased ??= this.ensure()
      .then(() =>
        this.client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'lockboard_claims' AND column_name = 'lease'`,
          [this.schema],
        ),
      )
      .then(({ rows }) => (rows[0]?.n ? undefined : this.client.query(alter)))
      .then(
        () => undefined,
        (err: { code?: string }) => {
          if (err.code === '42501') throw missing(this.table, alter, err as Error);
          if (err.code !== '42701') throw err; // 42701: another replica added it meanwhile
        },
      );
    this.leased.catch(() => (this.leased = undefined));
    return this.leased;
  }

  async create(key: string, body: string): Promise<string | null> {
    await this.ensureLease();
    const sql = `INSERT INTO ${this.table} (claim, lease) VALUES ($1, $2) ON CONFLICT DO NOTHING`;
    const r = await this.client.query(sql, [key, body]);
    this.pruner.maybe();
    return (r.rowCount ?? 0) === 1 ? body : null;
  }

  async read(key: string): Promise<{ body: string; version: string } | null> {
    await this.ensureLease();
    const sql = `SELECT coalesce(lease, '') AS lease FROM ${this.table} WHERE claim = $1`;
    const { rows } = await this.client.query<{ lease: string }>(sql, [key]);
    return rows[0] ? { body: rows[0].lease, version: rows[0].lease } : null;
  }

  async replace(key: string, body: string, version: string): Promise<string | null> {
    await this.ensureLease();
    const sql = `UPDATE ${this.table} SET lease = $3 WHERE claim = $1 AND coalesce(lease, '') = $2`;
    const r = await this.client.query(sql, [key, version, body]);
    return (r.rowCount ?? 0) === 1 ? body : null;
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
