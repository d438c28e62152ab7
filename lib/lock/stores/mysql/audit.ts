// The MySQL audit trail: lockboard_audit (created on first use, or by a DBA from `lockboard mysql init`'s DDL), each
// row dated by the server (a trigger sets `at` on insert where this user may create one; the default otherwise).
import type { AuditRecord } from '../../audit/record';
import { signAuditFields } from '../../audit/trust';
import type { Db } from './client';

export const AUDIT_DDL = [
  `CREATE TABLE IF NOT EXISTS lockboard_audit (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  event VARCHAR(64) NOT NULL,
  \`lock\` VARCHAR(1024) NOT NULL,
  fields JSON NOT NULL,
  KEY lockboard_audit_at (at)
)`,
  `CREATE TRIGGER lockboard_audit_at BEFORE INSERT ON lockboard_audit FOR EACH ROW SET NEW.at = NOW(3)`,
];

export class MysqlAuditTrail {
  private ready: Promise<void> | undefined;

  constructor(private readonly db: Db) {}

  /** Creates lockboard_audit if absent (a user without CREATE needs it created once: `lockboard mysql init`). */
  private ensure(): Promise<void> {
    this.ready ??= this.db
      .rows(
        `SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'lockboard_audit'`,
      )
      .then(async (found) => {
        if (found.length) return;
        await this.db.run(AUDIT_DDL[0]!);
        await this.db.run(AUDIT_DDL[1]!).catch(() => undefined); // no TRIGGER privilege: the default dates rows
      });
    this.ready.catch(() => (this.ready = undefined));
    return this.ready;
  }

  async record(fields: Record<string, string>): Promise<string> {
    await this.ensure();
    const { event, lock, ...rest } = signAuditFields(fields);
    const [row] = await this.db
      .rows<{ id: string }>(
        'INSERT INTO lockboard_audit (event, `lock`, fields) VALUES (?, ?, ?) RETURNING CAST(id AS CHAR) AS id',
        [event, lock, JSON.stringify(rest)],
      )
      .catch(async (err: unknown) => {
        // MySQL 8 has no INSERT … RETURNING
        if ((err as { code?: string }).code !== 'ER_PARSE_ERROR') throw err;
        await this.db.run('INSERT INTO lockboard_audit (event, `lock`, fields) VALUES (?, ?, ?)', [
          event,
          lock,
          JSON.stringify(rest),
        ]);
        return this.db.rows<{ id: string }>('SELECT CAST(LAST_INSERT_ID() AS CHAR) AS id');
      });
    return `lockboard_audit#${row!.id}`;
  }

  async read(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    await this.ensure();
    const rows = await this.db.rows<{ id: string; at: string; event: string; lock: string; fields: string | object }>(
      `SELECT CAST(id AS CHAR) AS id, UNIX_TIMESTAMP(at) AS at, event, \`lock\` AS \`lock\`, fields FROM lockboard_audit
       WHERE at >= FROM_UNIXTIME(?) AND at < FROM_UNIXTIME(?) AND (? IS NULL OR \`lock\` = ?) ORDER BY at, id`,
      [from.getTime() / 1000, to.getTime() / 1000, lock ?? null, lock ?? null],
    );
    return rows.map((r) => {
      const fields = (typeof r.fields === 'string' ? JSON.parse(r.fields) : r.fields) as Record<string, string>;
      const at = new Date(Math.round(Number(r.at) * 1000)).toISOString();
      return { ...fields, id: `audit#${r.id}`, at, event: r.event, lock: r.lock } as AuditRecord;
    });
  }
}
