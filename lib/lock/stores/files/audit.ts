// The trail beside the locks: `<dir>/.lockboard/audit.jsonl` (or the directory the source names with `?audit=`), one
// JSON line per event appended with O_APPEND (one write each, so concurrent writers never interleave a line).
// The default lives inside the directory holders write, so it is opened as hostile ground (safe-fs.ts, issue #51):
// `.lockboard` and `audit.jsonl` must be a directory and a regular file owned by the user who runs Lockboard, not
// group/other-writable, never followed through a link, never a FIFO; anything else is refused (nothing released).
// The default stays beside the locks (not moved to ~/.local/state): several operators and the console, each as its
// own user, read one trail per directory there, and a holder cannot write into a `.lockboard` it does not own.
// The trail is data: its lines are JSON whose strings (lock names included) come from holders; never source it.
import { randomBytes } from 'node:crypto';
import { AUDIT_STRING_FIELDS, type AuditRecord } from '../../audit/record';
import { signAuditFields } from '../../audit/trust';
import { jsonObject } from '../../support/untrusted';
import { appendOwnFile, readOwnFile } from './safe-fs';

const FILE = 'audit.jsonl';
const MAX_TRAIL = 256 << 20;

/** Appends one event; resolves to its id. Throws when the trail cannot be written (nothing is then released). */
export function recordEvent(dir: string, fields: Record<string, string>): string {
  const at = new Date();
  const id = `${at.getTime()}-${randomBytes(4).toString('hex')}`;
  const line = `${JSON.stringify({ id, at: at.toISOString(), ...signAuditFields(fields, at.getTime()) })}\n`;
  appendOwnFile(dir, FILE, line, 'audit trail');
  return id;
}

/** Events of [from, to), oldest first, for one lock or all. */
export function readEvents(dir: string, from: Date, to: Date, lock?: string): AuditRecord[] {
  const body = readOwnFile(dir, FILE, MAX_TRAIL, 'audit trail');
  if (!body) return [];
  const text = body.toString('utf8');
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
