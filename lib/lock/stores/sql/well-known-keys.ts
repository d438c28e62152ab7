// Migration tools' lock keys, the same on PostgreSQL (advisory keys) and MySQL (a named lock Rails names by its key):
// fixed, or derived from the database's name.
import { crc32 } from 'node:zlib';

/** FNV-1 32-bit (Atlas's lock key for "atlas_migrate_execute"). */
function fnv1(s: string): bigint {
  let h = 0x811c9dc5n;
  for (const c of Buffer.from(s)) h = ((h * 0x01000193n) & 0xffffffffn) ^ BigInt(c);
  return h;
}

/** Tools whose advisory key is fixed or derived from the database (facts-redis-postgres.md, "Tools and their keys"). */
export function wellKnownKey(key: string, datname: string): string | undefined {
  if (key === '72707369') return 'Prisma Migrate';
  if (key === '7241865325823964') return 'node-pg-migrate';
  if (key === String(2053462845n * BigInt(crc32(datname)))) return 'Rails migrations';
  if (key === String(fnv1('atlas_migrate_execute'))) return 'Atlas migrate';
  if (/^\d+$/.test(key) && Math.abs(Number(BigInt(key) - 77431708279161n)) < 2 ** 31) return 'Flyway';
  return undefined;
}
