// Audit object names (GCS and S3): one object per event, named by the store's time so a listing sorts by time.
import { randomBytes } from 'node:crypto';

/**
 * `<prefix><yyyy>/<mm>/<dd>/<hh>/<yyyymmddThhmmss.ssssssZ>-<suffix>.json` for a server time in ms; the suffix is 8
 * random hex unless given (observed events use a hash of what they describe, so a redelivery names the same object).
 */
export function auditObjectName(prefix: string, serverMs: number, suffix = randomBytes(4).toString('hex')): string {
  const d = new Date(serverMs);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const [y, mo, da, h] = [d.getUTCFullYear(), p(d.getUTCMonth() + 1), p(d.getUTCDate()), p(d.getUTCHours())];
  const micros = p(d.getUTCMilliseconds() * 1000, 6);
  const stamp = `${y}${mo}${da}T${h}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}.${micros}Z`;
  return `${prefix}${y}/${mo}/${da}/${h}/${stamp}-${suffix}.json`;
}
