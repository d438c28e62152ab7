// Which tool took a named lock, by the name it uses (facts-mysql.md "Tools and their lock names"): Flyway's
// `Flyway-<Java hashCode of the history table>`, Rails' migration number (the number the PostgreSQL store already
// recognises, here as text), golang-migrate's salted CRC-32, gh-ost's `gh-ost::db.table`, Prisma's `prisma_migrate`.
import { crc32 } from 'node:zlib';
import { wellKnownKey } from '../sql/well-known-keys';

/** Java's String.hashCode, as Flyway's MySQLNamedLockTemplate names its lock. */
function javaHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** golang-migrate's GenerateAdvisoryLockId("<db>:<table>"): CRC-32 × 1486364155 as a uint32. */
const golangMigrate = (db: string, table = 'schema_migrations') =>
  String((BigInt(crc32(`${db}:${table}`)) * 1486364155n) & 0xffffffffn);

interface NamedTool {
  tool: string;
  /** What the name says beyond the tool (the history table, the migrated table). */
  about?: string;
}

export function namedTool(name: string, database: string): NamedTool | undefined {
  const flyway = /^Flyway-(-?\d+)$/.exec(name);
  if (flyway) {
    const own = javaHash(`\`${database}\`.\`flyway_schema_history\``) === Number(flyway[1]);
    return { tool: 'Flyway', about: own ? `${database}.flyway_schema_history` : 'another schema or history table' };
  }
  if (/^\d+$/.test(name) && wellKnownKey(name, database) === 'Rails migrations')
    return { tool: 'Rails migrations', about: `database ${database}` };
  if (name === golangMigrate(database)) return { tool: 'golang-migrate', about: `${database}.schema_migrations` };
  const ghost = /^gh-ost::(.+)$/.exec(name);
  if (ghost) return { tool: 'gh-ost', about: `migrating ${ghost[1]}` };
  if (name === 'prisma_migrate') return { tool: 'Prisma Migrate' };
  if (/^lockboard\//.test(name)) return { tool: 'Lockboard', about: `lockboard run ${name.slice(10)}` };
  return undefined;
}

/** Flyway's lock name for a schema (the demo and tests take it the way Flyway does). */
export const flywayLockName = (schema: string): string =>
  `Flyway-${javaHash(`\`${schema}\`.\`flyway_schema_history\``)}`;
