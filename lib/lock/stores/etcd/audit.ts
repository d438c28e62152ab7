// The etcd audit trail: one key per event under `lockboard/audit/` in the same etcd (value: the event as JSON),
// named by the writer's millisecond time so a window is one range read. etcd keeps no wall-clock time (a revision is
// an order, not a time): a record's time is its signed time where the signature holds, else the writer's, marked as
// reported (lib/lock/audit/trust.ts). Values are read bounded (bounded-read.ts) and checked by type.
import { randomBytes } from 'node:crypto';
import { AUDIT_STRING_FIELDS, type AuditRecord } from '../../audit/record';
import { signAuditFields } from '../../audit/trust';
import { jsonObject } from '../../support/untrusted';
import { readKeysOnly, readValues } from './bounded-read';
import type { Etcd3Client } from './client';

export const AUDIT_PREFIX = 'lockboard/audit/';

const keyAt = (ms: number) => `${AUDIT_PREFIX}${String(Math.max(0, ms)).padStart(15, '0')}`;

export async function recordEtcdEvent(client: Etcd3Client, fields: Record<string, string>): Promise<string> {
  const now = Date.now();
  const id = `${keyAt(now)}-${randomBytes(4).toString('hex')}`;
  await client.put(id).value(JSON.stringify({ ...signAuditFields(fields, now), at: new Date(now).toISOString() }));
  return id;
}

/** Records of [from, to) by key name; `values`: the client whose replies are capped (the main one where not given). */
export async function readEtcdEvents(
  client: Etcd3Client,
  from: Date,
  to: Date,
  lock?: string,
  values: Etcd3Client = client,
): Promise<AuditRecord[]> {
  const range = (ms: number) => Buffer.from(keyAt(ms), 'utf8');
  const keys = await readKeysOnly(client, range(from.getTime()), range(to.getTime()));
  const out: AuditRecord[] = [];
  for (const kv of await readValues(values, keys)) {
    // any JSON a writer put there: an object or nothing, and only its string fields
    const f = kv.oversized ? undefined : jsonObject(kv.value.toString('utf8'));
    if (!f || typeof f.event !== 'string' || typeof f.lock !== 'string' || typeof f.at !== 'string') continue;
    if (!f.event || (lock && f.lock !== lock)) continue;
    const record: AuditRecord = { id: kv.key, at: f.at, at_from: 'reported', event: 'unknown', lock: f.lock };
    (record as unknown as Record<string, string>).event = f.event; // checked against the known kinds when shown
    for (const k of AUDIT_STRING_FIELDS) if (typeof f[k] === 'string') record[k] = f[k] as never;
    out.push(record);
  }
  return out;
}
