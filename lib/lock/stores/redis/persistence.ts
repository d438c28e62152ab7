// Whether the Redis audit trail outlives a restart of its server: only with a save rule (RDB snapshots) or the
// append-only file. A server with neither keeps the stream in memory, and the console says so beside its trail.
import { hashOf } from './audit';
import type { RedisConn } from './conn';

/**
 * Why the trail in `stream` would be lost when the server restarts, or null where it is saved (a `save` rule or
 * `appendonly yes`) or the server does not say (CONFIG refused, as on managed Redis): nothing is claimed then.
 */
export async function memoryOnlyTrail(conn: RedisConn, stream: string): Promise<string | null> {
  let save: Record<string, string>;
  let aof: Record<string, string>;
  try {
    // on a cluster both go to the master holding the stream: its configuration is the one that matters
    const [s, a] = await conn.pipeline([
      [stream, ['CONFIG', 'GET', 'save']],
      [stream, ['CONFIG', 'GET', 'appendonly']],
    ]);
    save = hashOf(s);
    aof = hashOf(a);
  } catch {
    return null;
  }
  if (save.save === undefined || aof.appendonly === undefined) return null;
  if (save.save.trim() !== '' || aof.appendonly === 'yes') return null;
  return `Redis keeps the audit trail (the stream "${stream}") in memory only: no save rule (CONFIG GET save is empty) and appendonly no, so a restart of the server loses it. Set "appendonly yes" (or a save rule) to keep it.`;
}
