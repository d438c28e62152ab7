// Audit events: one small object per event under the audit prefix. A holder's events are written in the background
// and never delay or fail a lock operation (queued, retried a few times, then dropped with a warning); a
// force-release records its attempt with `recordNow` before it deletes anything, and refuses when it cannot.
import { randomBytes } from 'node:crypto';
import { isTransient, statusOf, type BucketObjects } from './gcs';

export type AuditEventKind =
  | 'acquired'
  | 'took-over'
  | 'released'
  | 'lost'
  | 'force-release-requested'
  | 'force-released'
  | 'force-release-refused'
  | 'observed-created'
  | 'observed-deleted'
  | 'deleted-outside';

export interface AuditEvent {
  event: AuditEventKind;
  lock: string;
  identity?: string;
  generation?: string;
  previous_identity?: string;
  /** For `took-over`: the replaced generation, and how long after it became stale it was taken over. */
  previous_generation?: string;
  stale_ms?: string;
  held_ms?: string;
  outcome?: string;
  error?: string;
  operator?: string;
  reason?: string;
  /**
   * "false" on a release whose DELETE response was lost and whose retry found the object gone: it was deleted, but
   * by this request or by another party's (the holder's own release, an operator) cannot be known. Only a
   * confirmed release (a 2xx DELETE) claims the generation, so the trail never shows two releases of one.
   */
  delete_confirmed?: 'false';
  /** Observed events (GCS notifications): the lock's format id. */
  format?: string;
}

const ATTEMPTS = 3;
const REQUEST_TIMEOUT_MS = 5_000;
const MAX_QUEUE = 1_000;

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

export class AuditWriter {
  private readonly pending = new Set<Promise<void>>();
  dropped = 0;

  constructor(
    private readonly objects: BucketObjects,
    private readonly prefix: string,
    private readonly warn: (message: string) => void = (m) => console.warn(m),
  ) {}

  /** Queues an event; returns at once. */
  record(event: AuditEvent): void {
    if (this.pending.size >= MAX_QUEUE) {
      this.dropped++;
      this.warn(`[lockboard] audit queue full; dropped a ${event.event} event for ${event.lock}`);
      return;
    }
    const task = this.write(event).finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  /** Waits for queued events, at most `maxMs`. */
  async flush(maxMs: number): Promise<void> {
    if (this.pending.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs)));
    await Promise.race([Promise.allSettled([...this.pending]), limit]);
    clearTimeout(timer);
  }

  /** Writes one event now, with retries; resolves to its object name, rejects with the storage error. */
  async recordNow(event: AuditEvent): Promise<string> {
    const metadata: Record<string, string> = {};
    for (const [key, value] of Object.entries(event)) if (value !== undefined) metadata[key] = String(value);
    if (metadata.error) metadata.error = truncateBytes(metadata.error, 1024);
    // One name for every attempt: a 412 on a retry means an earlier attempt's response was lost, not a failure.
    const name = auditObjectName(this.prefix, this.objects.clock.now());
    for (let attempt = 1; ; attempt++) {
      try {
        await this.objects.create(
          name,
          JSON.stringify(metadata),
          metadata,
          { ifGenerationMatch: 0 },
          REQUEST_TIMEOUT_MS,
        );
        return name;
      } catch (err) {
        if (attempt > 1 && statusOf(err) === 412) return name;
        if (!isTransient(err) || attempt >= ATTEMPTS) throw err;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  }

  private async write(event: AuditEvent): Promise<void> {
    try {
      await this.recordNow(event);
    } catch (err) {
      this.dropped++;
      this.warn(`[lockboard] dropped audit event ${event.event} for ${event.lock}: ${(err as Error).message}`);
    }
  }
}

export function truncateBytes(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  return buf
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}
