// Azure's audit trail: one JSON blob per event under the audit prefix of the container (created only if absent:
// If-None-Match: *), read back per day: one List Blobs per 5 000 events and one read per event not read before.
import { AUDIT_STRING_FIELDS, type AuditRecord } from '../../audit/record';
import { storeTime } from '../../audit/time';
import { signAuditFields } from '../../audit/trust';
import { mapLimit } from '../../support/map-limit';
import { auditObjectName } from '../../objects/audit-names';
import { jsonObject } from '../../support/untrusted';
import type { AzureBlobs } from './blobs';

const CONCURRENCY = 16;
const DAY_MS = 86_400_000;

export class AzureAuditTrail {
  /** Events by blob name (never rewritten once written). */
  private readonly events = new Map<string, AuditRecord | null>();

  constructor(
    private readonly blobs: AzureBlobs,
    private readonly auditPrefix: string,
  ) {}

  async record(fields: Record<string, string>): Promise<string> {
    const now = this.blobs.now();
    const name = auditObjectName(this.auditPrefix, now);
    const body = JSON.stringify({ ...signAuditFields(fields, now), at: new Date(now).toISOString() });
    await this.blobs.upload(name, body, { ifNoneMatch: '*' });
    return name;
  }

  async read(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    const modified = new Map<string, number>();
    for (let d = Math.floor(from.getTime() / DAY_MS) * DAY_MS; d < to.getTime(); d += DAY_MS) {
      const day = auditObjectName(this.auditPrefix, d).replace(/\d{2}\/[^/]+$/, '');
      let token: string | undefined;
      do {
        const page = await this.blobs.list(day, token);
        for (const i of page.items) modified.set(i.name, i.lastModifiedMs);
        token = page.next;
      } while (token);
    }
    const [lo, hi] = [from, to].map((t) => auditObjectName(this.auditPrefix, t.getTime()).slice(0, -14));
    const wanted = [...modified.keys()].filter((k) => k.slice(0, -14) >= lo! && k.slice(0, -14) < hi!);
    const records = await mapLimit(wanted, CONCURRENCY, (name) => this.event(name, modified.get(name)));
    return records.filter((r): r is AuditRecord => r !== null && (!lock || r.lock === lock));
  }

  /**
   * Whether this trail records `version` of `lock` force-released within the last day: a released Terraform lock
   * leaves its state blob with no lease and no lock info, which alone looks like data; its second release is `gone`.
   */
  async released(lock: string, version: string, nowMs: number): Promise<boolean> {
    const records = await this.read(new Date(nowMs - DAY_MS), new Date(nowMs + 60_000), lock);
    for (const r of records.filter((e) => e.event === 'force-released')) {
      const body = await this.blobs.download(r.id);
      if (body && jsonObject(body.toString('utf8'))?.version === version) return true;
    }
    return false;
  }

  private async event(name: string, lastModifiedMs: number | undefined): Promise<AuditRecord | null> {
    let record = this.events.get(name);
    if (record === undefined) {
      const body = await this.blobs.download(name);
      record = body ? (auditRecordOf(name, body, lastModifiedMs) ?? null) : null;
      this.events.set(name, record);
    }
    return record;
  }
}

function auditRecordOf(name: string, body: Buffer, lastModifiedMs: number | undefined): AuditRecord | undefined {
  const fields = jsonObject(body.toString('utf8'));
  if (!fields) return undefined;
  const { event, lock } = fields;
  const written = typeof fields.at === 'string' ? fields.at : undefined;
  // Last-Modified (whole seconds) bounds the time the body claims
  const at = lastModifiedMs === undefined ? written : storeTime(written, lastModifiedMs, 1_500);
  if (typeof event !== 'string' || typeof lock !== 'string' || at === undefined) return undefined;
  const record = { id: name, at, event, lock } as AuditRecord;
  for (const k of AUDIT_STRING_FIELDS) if (typeof fields[k] === 'string') record[k] = fields[k];
  if (fields.delete_confirmed === 'false') record.delete_confirmed = 'false';
  return record;
}

/** Where the trail is and how to let Lockboard write it, for a release refused because its attempt was not recorded. */
export const auditWords = (prefix: string) => ({
  where: `as a blob under the audit prefix "${prefix}" of the container`,
  fix: 'grant Storage Blob Data Contributor (or a SAS with create and write) on that container.',
});
