// The delivery queue: bounded (the oldest waiting delivery dropped and counted when full, never unbounded memory),
// a few attempts at a time, each retry scheduled by its own decision (retry.ts). Nothing here runs on a request's
// path: a slow receiver slows only its own deliveries.
import type { AttemptResult } from './attempt';
import type { NotifyEvent } from './event';
import { decide, DEFAULT_RETRY, type FinalOutcome, type RetryPolicy } from './retry';

export interface DeliveryJob {
  webhook: string;
  event: NotifyEvent;
  attempts: number;
  firstAt: number;
  nextAt: number;
  lastStatus?: number;
  lastError?: string;
}

export interface QueueOptions {
  /** One attempt of a job. */
  send(job: DeliveryJob): Promise<AttemptResult>;
  /** When queued (pending), after each attempt (retrying, or final), and for a dropped job. */
  report(job: DeliveryJob, state: FinalOutcome | 'pending' | 'retrying' | 'dropped'): void;
  max?: number;
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  now?: () => number;
}

export class DeliveryQueue {
  private readonly waiting: DeliveryJob[] = [];
  private running = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly policy: RetryPolicy;
  private readonly now: () => number;

  constructor(private readonly o: QueueOptions) {
    this.policy = { ...DEFAULT_RETRY, ...o.retry };
    this.now = o.now ?? Date.now;
  }

  get size(): number {
    return this.waiting.length + this.running;
  }

  push(webhook: string, event: NotifyEvent): void {
    if (this.stopped) return;
    const max = this.o.max ?? 1_000;
    while (this.waiting.length >= max) this.o.report(this.waiting.shift()!, 'dropped');
    const now = this.now();
    const job = { webhook, event, attempts: 0, firstAt: now, nextAt: now };
    this.waiting.push(job);
    this.o.report(job, 'pending');
    this.pump();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Starts every due job the concurrency allows; wakes again for the next one due. */
  private pump(): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    const now = this.now();
    this.waiting.sort((a, b) => a.nextAt - b.nextAt);
    while (this.running < (this.o.concurrency ?? 4) && this.waiting[0] && this.waiting[0].nextAt <= now) {
      void this.run(this.waiting.shift()!);
    }
    const next = this.waiting[0];
    if (next && this.running < (this.o.concurrency ?? 4)) {
      this.timer = setTimeout(() => this.pump(), Math.max(0, next.nextAt - now));
      this.timer.unref?.();
    }
  }

  private async run(job: DeliveryJob): Promise<void> {
    this.running++;
    try {
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
      this.running--;
      this.pump();
    }
  }
}
