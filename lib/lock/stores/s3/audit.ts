// S3's audit trail: one JSON object per event under the audit prefix (created only if absent), read back per day.
import { AUDIT_STRING_FIELDS, type AuditRecord } from '../../audit/record';
import { storeTime } from '../../audit/time';
import { signAuditFields } from '../../audit/trust';
import { mapLimit } from '../../support/map-limit';
import { jsonObject } from '../../support/untrusted';
import { auditObjectName } from '../../objects/audit-names';
import type { S3Objects } from './objects';

const CONCURRENCY = 16;

export class S3AuditTrail {
  /** Audit events by key (immutable once written). */
  private readonly events = new Map<string, AuditRecord | null>();

  constructor(
    private readonly objects: S3Objects,
    private readonly auditPrefix: string,
  ) {}

  /**
   * Audit events of [from, to): one ListObjectsV2 per 1 000 events under each day's prefix, and one GET per event
   * not read before (an event never changes, so its body is cached by key).
   */
  async read(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    const out: AuditRecord[] = [];
    const keys: string[] = [];
    const modified = new Map<string, number>();
    for (
      let d = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
      d < to.getTime();
      d += 86_400_000
    ) {
      const day = auditObjectName(this.auditPrefix, d).replace(/\d{2}\/[^/]+$/, '');
      let token: string | undefined;
      do {
        const page = await this.objects.list(day, token);
        for (const i of page.items) modified.set(i.key, i.lastModifiedMs);
        keys.push(...page.items.map((i) => i.key));
        token = page.next;
      } while (token);
    }
    const [lo, hi] = [
      auditObjectName(this.auditPrefix, from.getTime()),
      auditObjectName(this.auditPrefix, to.getTime()),
    ];
    const wanted = keys.filter((k) => k.slice(0, -14) >= lo.slice(0, -14) && k.slice(0, -14) < hi.slice(0, -14));
    const records = await mapLimit(wanted, CONCURRENCY, async (key) => {
      let record = this.events.get(key);
      if (!record) {
        const body = await this.objects.get(key);
        record = body ? (auditRecordOf(key, body.body, modified.get(key)) ?? null) : null;
        this.events.set(key, record);
      }
      return record;
    });
    for (const r of records) if (r && (!lock || r.lock === lock)) out.push(r);
    return out;
  }

  /** One audit event: a JSON object under the audit prefix, created only if absent. */
  async record(fields: Record<string, string>): Promise<string> {
    const name = auditObjectName(this.auditPrefix, this.objects.now());
    const at = new Date(this.objects.now()).toISOString();
    await this.objects.put(name, JSON.stringify({ ...signAuditFields(fields, this.objects.now()), at }), {
      ifNoneMatch: '*',
    });
    return name;
  }
}

/** An S3 audit object's JSON body as the shared audit record. */
function auditRecordOf(key: string, body: Buffer, lastModifiedMs: number | undefined): AuditRecord | undefined {
  const fields = jsonObject(body.toString('utf8'));
  if (!fields) return undefined;
  const { event, lock } = fields;
  const written = typeof fields.at === 'string' ? fields.at : undefined;
  // S3's LastModified (whole seconds) bounds the time the body claims
  const at = lastModifiedMs === undefined ? written : storeTime(written, lastModifiedMs, 1_500);
  if (typeof event !== 'string' || typeof lock !== 'string' || at === undefined) return undefined;
  const record = { id: key, at, event, lock } as AuditRecord;
  for (const k of AUDIT_STRING_FIELDS) if (typeof fields[k] === 'string') record[k] = fields[k];
  if (fields.delete_confirmed === 'false') record.delete_confirmed = 'false';
  return record;
}

/** Where the trail is and how to let Lockboard write it, for a release refused because its attempt was not recorded. */
export const auditWords = (prefix: string) => ({
  where: `as an object under the S3 audit prefix "${prefix}"`,
  fix: 'grant s3:PutObject on that prefix.',
});
