// The Redis audit trail: a stream in the same database (lockboard:audit), written before and after each release.
import { AUDIT_STRING_FIELDS, type AuditRecord } from '../../audit/record';
import { signAuditFields } from '../../audit/trust';
import type { RedisConn } from './conn';

/** One event in the audit stream (XADD, capped near 100 000 entries). */
export async function recordEvent(conn: RedisConn, stream: string, fields: Record<string, string>): Promise<string> {
  const flat = Object.entries({
    ...signAuditFields(fields, conn.now()),
    at: new Date(conn.now()).toISOString(),
  }).flat();
  return String(await conn.cmd(stream, ['XADD', stream, 'MAXLEN', '~', '100000', '*', ...flat]));
}

/** Events of [from, to) by stream id (the id is the server's millisecond time). */
export async function readEvents(
  conn: RedisConn,
  stream: string,
  from: Date,
  to: Date,
  lock?: string,
): Promise<AuditRecord[]> {
  const out: AuditRecord[] = [];
  let start = String(from.getTime());
  const end = String(to.getTime() - 1);
  for (;;) {
    const page = (await conn.cmd(stream, ['XRANGE', stream, start, end, 'COUNT', '1000'])) as [string, string[]][];
    for (const [id, flat] of page) {
      const f = hashOf(flat);
      if (!f.event || !f.lock || (lock && f.lock !== lock)) continue;
      const record = {
        id,
        at: new Date(Number(id.split('-')[0])).toISOString(),
        event: f.event,
        lock: f.lock,
      } as AuditRecord;
      for (const k of AUDIT_STRING_FIELDS) if (f[k]) record[k] = f[k];
      out.push(record);
    }
    if (page.length < 1000) return out;
    start = `(${page[page.length - 1]![0]}`;
  }
}

export /** HGETALL / XRANGE field lists as an object (RESP3 may already give a map). */
function hashOf(reply: unknown): Record<string, string> {
  if (Array.isArray(reply)) {
    const out: Record<string, string> = {};
    for (let i = 0; i + 1 < reply.length; i += 2) out[String(reply[i])] = String(reply[i + 1]);
    return out;
  }
  if (reply instanceof Map) return Object.fromEntries([...reply].map(([k, v]) => [String(k), String(v)]));
  return Object.fromEntries(Object.entries((reply ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}

/** Where the trail is and how to let Lockboard write it, for a release refused because its attempt was not recorded. */
export const auditWords = (stream: string) => ({
  where: `in the Redis stream "${stream}"`,
  fix: 'let this user XADD to it (ACL +xadd), or free memory if Redis refuses writes.',
});
