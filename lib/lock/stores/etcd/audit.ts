// The etcd audit trail: one key per event under `lockboard/audit/` in the same etcd (value: the event as JSON),
// named by the console's millisecond time so a window is one range read. etcd keeps no wall-clock time itself.
import { randomBytes } from 'node:crypto';
import { AUDIT_STRING_FIELDS, type AuditRecord } from '../../audit-record';
import type { Etcd3Client } from './client';
import { signAuditFields } from '../../audit-trust';
import { jsonObject } from '../../untrusted';

export const AUDIT_PREFIX = 'lockboard/audit/';

const keyAt = (ms: number) => `${AUDIT_PREFIX}${String(Math.max(0, ms)).padStart(15, '0')}`;

export async function recordEtcdEvent(client: Etcd3Client, fields: Record<string, string>): Promise<string> {
  const now = Date.now();
  const id = `${keyAt(now)}-${randomBytes(4).toString('hex')}`;
  await client.put(id).value(JSON.stringify({ ...signAuditFields(fields, now), at: new Date(now).toISOString() }));
  return id;
}

export async function readEtcdEvents(client: Etcd3Client, from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
  const { Range } = await import('etcd3');
  const res = await client
    .getAll()
    .inRange(new Range(keyAt(from.getTime()), keyAt(to.getTime())))
    .exec();
  const out: AuditRecord[] = [];
  for (const kv of res.kvs) {
    // any JSON a writer put there: an object or nothing; its fields are checked by type where they are read
    const f = jsonObject(kv.value.toString('utf8')) as Record<string, string> | undefined;
    if (!f) continue;
    if (!f.event || !f.lock || (lock && f.lock !== lock)) continue;
    const record = { id: kv.key.toString('utf8'), at: f.at, event: f.event, lock: f.lock } as AuditRecord;
    for (const k of AUDIT_STRING_FIELDS) if (f[k]) record[k] = f[k];
    out.push(record);
  }
  return out;
}
