// Delivery claims in MySQL/MariaDB (one webhook delivery per event across console replicas): a row of
// lockboard_claims beside lockboard_audit, created on first use as the trail is, inserted with INSERT IGNORE (true
// where this insert made the row: one affected row). Its two columns match no lock table's shape: never listed. Rows
// older than two days (far past a delivery's hour of retries and a restarted replica's look-back) are deleted, at
// most once an hour per console. As leases (claim-lease.ts) the row's `lease` column holds the lease, inserted with
// INSERT IGNORE and replaced by one UPDATE … WHERE lease = <the lease read> (its text is its version); the column is
// added to an older table once.
import type { ClaimRecords } from '../../claim-lease';
import { ClaimPruner } from '../../claim-keeping';
import type { Db } from './client';

export const CLAIMS_DDL = `CREATE TABLE IF NOT EXISTS lockboard_claims (
  claim VARCHAR(128) NOT NULL PRIMARY KEY,
  at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  lease TEXT NULL
)`;
const ADD_LEASE = 'ALTER TABLE lockboard_claims ADD COLUMN lease TEXT NULL';

export class MysqlClaims implements ClaimRecords {
  private ready: Promise<void> | undefined;
  private leased: Promise<void> | undefined;
  // on the server's clock, two days as claim-keeping.ts keeps them
  private readonly pruner = new ClaimPruner(() =>
    this.db.run('DELETE FROM lockboard_claims WHERE at < NOW(3) - INTERVAL 2 DAY'),
  );

  constructor(private readonly db: Db) {}

  /** Creates the table if absent (looked up first: a user without CREATE may use one a DBA made). */
  private ensure(): Promise<void> {
    this.ready ??= this.db
      .rows(
        `SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'lockboard_claims'`,
      )
      .then(async (found) => {
        if (!found.length)
          await this.db.run(CLAIMS_DDL).catch((err: Error & { code?: string }) => {
            if (err.code !== 'ER_TABLEACCESS_DENIED_ERROR' && err.code !== 'ER_DBACCESS_DENIED_ERROR') throw err;
            const fix = 'have a DBA create it once (lockboard mysql init prints it)';
            throw Object.assign(
              new Error(`lockboard_claims (webhook delivery claims) cannot be created: ${err.message}; ${fix}`),
              { code: err.code },
            );
          });
      });
    this.ready.catch(() => (this.ready = undefined));
    return this.ready;
  }

  /** The `lease` column, added to a table made before leases (once per console; a DBA may have to run ADD_LEASE). */
  private ensureLease(): Promise<void> {
    this.leased ??= this.ensure()
      .then(() =>
        this.db.rows(
          `SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'lockboard_claims' AND COLUMN_NAME = 'lease'`,
        ),
      )
      .then((found) => (found.length ? undefined : this.db.run(ADD_LEASE)))
      .then(
        () => undefined,
        (err: Error & { code?: string }) => {
          if (err.code === 'ER_DUP_FIELDNAME') return; // another replica added it meanwhile
          throw new Error(`lockboard_claims needs its lease column: ${err.message}; have a DBA run ${ADD_LEASE}`);
        },
      );
    this.leased.catch(() => (this.leased = undefined));
    return this.leased;
  }

  async create(key: string, body: string): Promise<string | null> {
    await this.ensureLease();
    const inserted = await this.db.run('INSERT IGNORE INTO lockboard_claims (claim, lease) VALUES (?, ?)', [key, body]);
    this.pruner.maybe();
    return inserted === 1 ? body : null;
  }

  async read(key: string): Promise<{ body: string; version: string } | null> {
    await this.ensureLease();
    const sql = `SELECT COALESCE(lease, '') AS lease FROM lockboard_claims WHERE claim = ?`;
    const [row] = await this.db.rows<{ lease: string }>(sql, [key]);
    return row ? { body: String(row.lease), version: String(row.lease) } : null;
  }

  async replace(key: string, body: string, version: string): Promise<string | null> {
    await this.ensureLease();
    const sql = `UPDATE lockboard_claims SET lease = ? WHERE claim = ? AND COALESCE(lease, '') = ?`;
    return (await this.db.run(sql, [body, key, version])) === 1 ? body : null;
  }

  async claim(key: string): Promise<boolean> {
    await this.ensure();
    const inserted = await this.db.run('INSERT IGNORE INTO lockboard_claims (claim) VALUES (?)', [key]);
    this.pruner.maybe();
    return inserted === 1;
  }
}
