// Audit events: one small object per event under the audit prefix. A holder's events are written in the background
// and never delay or fail a lock operation (queued, retried a few times, then dropped with a warning); a
// force-release records its attempt with `recordNow` before it deletes anything, and refuses when it cannot.
import { signAuditFields } from '../../audit/trust';
import { auditObjectName } from '../../objects/audit-names';
import type { AuditEvent } from '../../audit/record';
import { isTransient, statusOf, type BucketObjects } from './client';

export { auditObjectName };

const ATTEMPTS = 3;
const REQUEST_TIMEOUT_MS = 5_000;
const MAX_QUEUE = 1_000;

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
    // signed when this process holds the deployment's key (the console, the CLI): lib/lock/audit/trust.ts
    for (const [key, value] of Object.entries(signAuditFields(event, this.objects.clock.now())))
      if (value !== undefined) metadata[key] = String(value);
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

function truncateBytes(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  return buf
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}
