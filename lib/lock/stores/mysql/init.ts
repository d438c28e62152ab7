// `lockboard mysql init`: without a source, the DDL of Lockboard's tables for a DBA to run; with one, the tables
// created there if absent (lockboard_audit: the force-release trail; lockboard_fence: `lockboard run`'s fencing
// tokens; lockboard_claims: the console's webhook delivery claims). Lockboard never alters a table it did not create.
import { AUDIT_DDL } from './audit';
import { CLAIMS_DDL } from './claim';
import { openSession } from './client';
import { FENCE_DDL } from './lock';
import type { MysqlSource } from './source';

export function initText(): string {
  return [
    '-- Lockboard on MySQL/MariaDB: run in the database Lockboard reads (or let it create them on first use).',
    `${AUDIT_DDL[0]};`,
    '-- optional: rows dated by the server even if a writer names a time (needs TRIGGER)',
    `${AUDIT_DDL[1]};`,
    `${FENCE_DDL};`,
    "-- the console's webhook delivery claims (one row per event and webhook, kept two days)",
    `${CLAIMS_DDL};`,
    '-- the console reads named locks from information_schema.METADATA_LOCK_INFO (MariaDB: INSTALL SONAME',
    "-- 'metadata_lock_info') or performance_schema.metadata_locks; releasing one needs CONNECTION ADMIN (or SUPER).",
  ].join('\n');
}

export async function createTables(
  source: MysqlSource,
  display: string,
  env: Record<string, string | undefined>,
): Promise<string> {
  const { db, close } = await openSession(source, env);
  try {
    const found = await db.rows(
      `SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'lockboard_audit'`,
    );
    if (!found.length) {
      await db.run(AUDIT_DDL[0]!);
      await db.run(AUDIT_DDL[1]!).catch(() => undefined);
    }
    await db.run(FENCE_DDL);
    await db.run(CLAIMS_DDL);
    return `Lockboard's tables are ready in ${display} (lockboard_audit, lockboard_fence, lockboard_claims).`;
  } finally {
    await close();
  }
}
