// The delivery queue: bounded (the oldest waiting delivery dropped and counted when full, never unbounded memory),
// a few attempts at a time, each retry scheduled by its own decision (retry.ts). Nothing here runs on a request's
// path: a slow receiver slows only its own deliveries. A job under a claim's lease renews it before each attempt and
// stops, reported `handed-over`, when another replica has taken the claim over.
import type { AttemptResult } from './attempt';
import type { NotifyEvent } from './event';
import type { JobLease } from './job-lease';
import { decide, DEFAULT_RETRY, type FinalOutcome, type RetryPolicy } from './retry';

export interface DeliveryJob {
  webhook: string;
  event: NotifyEvent;
  attempts: number;
  firstAt: number;
  nextAt: number;
  lastStatus?: number;
  lastError?: string;
  /** The claim's lease, where the store keeps leases (claims.ts). */
  lease?: JobLease;
}

export type JobState = FinalOutcome | 'pending' | 'retrying' | 'dropped' | 'handed-over';

interface QueueOptions {
  /** One attempt of a job. */
  send(job: DeliveryJob): Promise<AttemptResult>;
  /** When queued (pending), after each attempt (retrying, or final), and for a dropped job. */
  report(job: DeliveryJob, state: JobState): void;
  max?: number;
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  now?: () => number;
}

export class DeliveryQueue {
  private readonly waiting: DeliveryJob[] = [];
  private readonly running = new Set<DeliveryJob>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly policy: RetryPolicy;
  private readonly now: () => number;

  constructor(private readonly o: QueueOptions) {
    this.policy = { ...DEFAULT_RETRY, ...o.retry };
    this.now = o.now ?? Date.now;
  }

  get size(): number {
    return this.waiting.length + this.running.size;
  }

  /** The jobs waiting or being sent. */
  jobs(): DeliveryJob[] {
    return [...this.waiting, ...this.running];
  }

  /** Queues a series, or continues one taken over (its attempts so far and its start kept, with its lease). */
  push(webhook: string, event: NotifyEvent, lease?: JobLease): void {
    if (this.stopped) return;
    const max = this.o.max ?? 1_000;
    while (this.waiting.length >= max) this.o.report(this.waiting.shift()!, 'dropped');
    const now = this.now();
    const started = lease && lease.attempts > 0 ? { attempts: lease.attempts, firstAt: lease.firstAt } : {};
    const job: DeliveryJob = { webhook, event, attempts: 0, firstAt: now, nextAt: now, ...started };
    if (lease) job.lease = lease;
    this.waiting.push(job);
    this.o.report(job, 'pending');
    this.pump();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Takes a job out of the queue (its claim was taken over meanwhile). */
  remove(job: DeliveryJob): void {
    const i = this.waiting.indexOf(job);
    if (i >= 0) this.waiting.splice(i, 1);
  }

  /** Starts every due job the concurrency allows; wakes again for the next one due. */
  private pump(): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    const now = this.now();
    this.waiting.sort((a, b) => a.nextAt - b.nextAt);
    while (this.running.size < (this.o.concurrency ?? 4) && this.waiting[0] && this.waiting[0].nextAt <= now) {
      void this.run(this.waiting.shift()!);
    }
    const next = this.waiting[0];
    if (next && this.running.size < (this.o.concurrency ?? 4)) {
      this.timer = setTimeout(() => this.pump(), Math.max(0, next.nextAt - now));
      this.timer.unref?.();
    }
  }

  private async run(job: DeliveryJob): Promise<void> {
    this.running.add(job);
    try {
      // the attempt about to be made counted already: a replica taking over after a crash mid-attempt counts it
      if (job.lease && !(await job.lease.renew(job.attempts + 1))) return this.o.report(job, 'handed-over');
      const r = await this.o.send(job).catch((err: unknown) => ({ error: (err as Error).message }) as AttemptResult);
      job.attempts++;
      job.lastStatus = r.status;
      job.lastError = r.error;
      const d = decide(r, job.attempts, job.firstAt, this.now(), this.policy);
      if ('outcome' in d) this.o.report(job, d.outcome);
      else {
        job.nextAt = this.now() + d.retryInMs;
        this.waiting.push(job);
        this.o.report(job, 'retrying');
      }
    } finally {
      this.running.delete(job);
      this.pump();
    }
  }
}
