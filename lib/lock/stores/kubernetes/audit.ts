// The Kubernetes trail: the annotations of one Lease, `lockboard-audit`, in the source's namespace (or `?audit=NS`).
// A Lease, because the console's Role is `get, list, watch, update` on leases (and `create`, for webhook claims: the
// manifests create this Lease); each record is one annotation, the newest 100 kept (annotations total at most 256 KiB).
import { randomBytes } from 'node:crypto';
import { AUDIT_STRING_FIELDS, type AuditRecord } from '../../audit/record';
import { AUDIT_LEASE } from './formats';
import { KubeRequestError, type Lease, type LeaseApi } from './lease';
import { signAuditFields } from '../../audit/trust';
import { jsonObject } from '../../support/untrusted';
import { MAX_BODY_BYTES } from '../../objects/formats/types';

const PREFIX = 'audit.lockboard.dev/';
const KEEP = 100;

/** One record, appended with a read and a PUT pinned to the resourceVersion read (retried on 409). */
export async function recordEvent(api: LeaseApi, namespace: string, fields: Record<string, string>): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const now = Date.now();
    const id = `${now.toString().padStart(14, '0')}-${randomBytes(3).toString('hex')}`;
    const value = JSON.stringify({ ...signAuditFields(fields, now), at: new Date(now).toISOString() });
    const current = await api.read(namespace, AUDIT_LEASE);
    try {
      if (!current) {
        const fresh: Lease = {
          metadata: { name: AUDIT_LEASE, namespace, annotations: { [PREFIX + id]: value } },
          spec: {},
        };
        await api.create(fresh);
        return id;
      }
      const annotations = { ...(current.metadata.annotations ?? {}), [PREFIX + id]: value };
      const ours = Object.keys(annotations)
        .filter((k) => k.startsWith(PREFIX))
        .sort();
      for (const old of ours.slice(0, Math.max(0, ours.length - KEEP))) delete annotations[old];
      await api.replace({ ...current, metadata: { ...current.metadata, annotations } });
      return id;
    } catch (err) {
      const raced = err instanceof KubeRequestError && (err.status === 409 || err.status === 404);
      if (!raced || attempt >= 5) throw err;
    }
  }
}

/** Records of [from, to), oldest first. */
export async function readEvents(
  api: LeaseApi,
  namespace: string,
  from: Date,
  to: Date,
  lock?: string,
): Promise<AuditRecord[]> {
  const lease = await api.read(namespace, AUDIT_LEASE);
  const out: AuditRecord[] = [];
  for (const [key, value] of Object.entries(lease?.metadata.annotations ?? {}).sort()) {
    if (!key.startsWith(PREFIX)) continue;
    // any text a writer put there: a JSON object within the 64 KiB rule, or nothing; each field checked by type
    const f = typeof value === 'string' && value.length <= MAX_BODY_BYTES ? jsonObject(value) : undefined;
    if (!f) continue;
    const text = (k: string) => (typeof f[k] === 'string' ? (f[k] as string) : undefined);
    const [when, event, name] = [text('at'), text('event'), text('lock')];
    const at = Date.parse(when ?? '');
    if (!when || !event || !name || !(at >= from.getTime() && at < to.getTime()) || (lock && name !== lock)) continue;
    // annotations carry no time of their own (the Lease has one update time for all): the writer's, as reported
    const record = { id: key.slice(PREFIX.length), at: when, at_from: 'reported', event, lock: name } as AuditRecord;
    for (const k of AUDIT_STRING_FIELDS) {
      const v = text(k);
      if (v !== undefined) record[k] = v;
    }
    out.push(record);
  }
  return out;
}
