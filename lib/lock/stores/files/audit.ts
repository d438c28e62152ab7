// The trail beside the locks: `<dir>/.lockboard/audit.jsonl` (or the directory the source names with `?audit=`), one
// JSON line per event appended with O_APPEND (one write each, so concurrent writers never interleave a line).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AUDIT_STRING_FIELDS, type AuditRecord } from '../../audit/record';
import { signAuditFields } from '../../audit/trust';
import { jsonObject } from '../../support/untrusted';

const FILE = 'audit.jsonl';

/** Appends one event; resolves to its id. Throws when the trail cannot be written (nothing is then released). */
export function recordEvent(dir: string, fields: Record<string, string>): string {
  fs.mkdirSync(dir, { recursive: true });
  const at = new Date();
  const id = `${at.getTime()}-${randomBytes(4).toString('hex')}`;
  fs.appendFileSync(
    path.join(dir, FILE),
    `${JSON.stringify({ id, at: at.toISOString(), ...signAuditFields(fields, at.getTime()) })}\n`,
  );
  return id;
}

/** Events of [from, to), oldest first, for one lock or all. */
export function readEvents(dir: string, from: Date, to: Date, lock?: string): AuditRecord[] {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: AuditRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    // a torn last line (a crash mid-write) or JSON that is no object is skipped
    const f = jsonObject(line);
    if (!f || typeof f.event !== 'string' || typeof f.lock !== 'string' || typeof f.at !== 'string') continue;
    const t = Date.parse(f.at);
    if (!f.event || !(t >= from.getTime() && t < to.getTime()) || (lock && f.lock !== lock)) continue;
    const id = typeof f.id === 'string' ? f.id : `${t}`;
    // one file of lines has no time per line (its mtime is the last append's): the writer's, shown as reported
    const record = { id, at: f.at, at_from: 'reported', event: f.event, lock: f.lock } as AuditRecord;
    for (const k of AUDIT_STRING_FIELDS) if (typeof f[k] === 'string') record[k] = f[k] as never;
    out.push(record);
  }
  return out;
}
