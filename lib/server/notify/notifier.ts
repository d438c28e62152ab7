// The notifier of one console replica: it reads each trail every few seconds (a window overlapping the last one, so
// a late record is still seen), turns the records into events, claims each event for each webhook that wants it
// (once across replicas: claims.ts) and queues the claimed ones for delivery. Holders gone long enough join them.
import type { AuditRecord } from '@/lib/lock/audit/record';
import { trustAuditRecords } from '@/lib/lock/audit/trust';
import { attribute, readTrailWindow, trailsOf, type Trail } from '../audit/trails';
import type { Source } from '../sources';
import { storeFor } from '../stores';
import type { AttemptOptions } from './attempt';
import { claimKey, claimOnce } from './claims';
import type { WebhooksConfig } from './config';
import { DeliveryLog } from './deliveries';
import type { NotifyEvent } from './event';
import { HolderGoneTracker } from './holder-gone';
import { someGlobMatches } from '../auth/glob';
import { DeliveryQueue } from './queue';
import type { RetryPolicy } from './retry';
import { reportJob, sendJob } from './sender';
import { eventOfRecord } from './trail-events';

export interface NotifierOptions {
  sources: () => Source[];
  config: () => WebhooksConfig;
  /** The console's public URL (NEXTAUTH_URL), for links to a lock's page. */
  linkBase?: string;
  pollMs?: number;
  /** How far back the first read looks (events of a restart's gap are still told, once). */
  lookbackMs?: number;
  attempt?: AttemptOptions;
  retry?: Partial<RetryPolicy>;
  maxQueue?: number;
  log?: (line: string) => void;
  /** Reads one trail's window (default: through the console's stores, with their timeout). */
  readTrail?: (trail: Trail, from: Date, to: Date) => Promise<AuditRecord[]>;
}

const OVERLAP_MS = 2 * 60_000;
const MAX_SEEN = 50_000;

export class Notifier {
  readonly deliveries = new DeliveryLog();
  readonly holders = new HolderGoneTracker();
  readonly queue: DeliveryQueue;
  private readonly since = new Map<string, number>();
  private readonly seen = new Set<string>();
  /** Trails whose last read failed (logged once, until one is read again). */
  private readonly failing = new Set<string>();
  private readonly started = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private readonly log: (line: string) => void;

  constructor(private readonly o: NotifierOptions) {
    this.log = o.log ?? ((line) => console.warn(line));
    this.queue = new DeliveryQueue({
      send: (job) => sendJob(this.hook(job.webhook), job, o.attempt ?? {}),
      report: (job, state) => reportJob(this.deliveries, job, state, this.host(job.webhook), this.log),
      max: o.maxQueue,
      retry: o.retry,
    });
  }

  start(): void {
    const tick = () => {
      this.timer = setTimeout(() => void this.poll().finally(tick), this.o.pollMs ?? 5_000);
      this.timer.unref?.();
    };
    void this.poll().finally(tick);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.stop();
  }

  /** One pass over every trail and the gone holders; concurrent calls share the pass under way. */
  poll(): Promise<void> {
    this.polling ??= this.pass().finally(() => (this.polling = undefined));
    return this.polling;
  }

  /** Queues `event` for every webhook that wants it and claims it first. */
  async offer(event: NotifyEvent, source: Source, only?: string): Promise<void> {
    const hooks = this.o
      .config()
      .webhooks.filter(
        (h) =>
          (only ? h.name === only : event.event !== 'test' && h.events.includes(event.event)) &&
          someGlobMatches(h.locks, event.lock.address),
      );
    if (hooks.length === 0) return;
    const store = await storeFor(source);
    for (const hook of hooks) {
      if (!(await claimOnce(store, claimKey(event.id, hook.name), this.log))) continue;
      this.queue.push(hook.name, event);
    }
  }

  private async pass(): Promise<void> {
    if (this.o.config().webhooks.length === 0) return;
    const all = this.o.sources();
    await Promise.all(trailsOf(all, all).map((t) => this.readOne(t)));
    await this.tellGone(all);
  }

  private async readOne(trail: Trail): Promise<void> {
    const now = Date.now();
    const from = this.since.get(trail.key) ?? this.started - (this.o.lookbackMs ?? 10 * 60_000);
    try {
      const read = this.o.readTrail ?? readTrailWindow;
      const records = attribute(trail, trustAuditRecords(await read(trail, new Date(from), new Date(now + 60_000))));
      for (const r of records) await this.offerRecord(trail, r);
      this.since.set(trail.key, now - OVERLAP_MS);
      if (this.failing.delete(trail.key)) this.log(`[lockboard] webhooks: trail of ${trail.sources[0]?.id} read again`);
    } catch (err) {
      if (this.failing.has(trail.key)) return;
      this.failing.add(trail.key);
      this.log(`[lockboard] webhooks: trail of ${trail.sources[0]?.id} not read (retried): ${(err as Error).message}`);
    }
  }

  private async offerRecord(trail: Trail, r: ReturnType<typeof attribute>[number]): Promise<void> {
    const key = `${trail.key}\u0000${r.id}`;
    if (this.seen.has(key)) return;
    const source = trail.sources.find((s) => s.id === r.source);
    const event = source && eventOfRecord(trail.key, r, source, this.o.linkBase);
    if (source && event) await this.offer(event, source); // a failed claim throws: the record is offered again
    if (this.seen.size >= MAX_SEEN) this.seen.delete(this.seen.values().next().value!);
    this.seen.add(key);
  }

  private async tellGone(all: Source[]): Promise<void> {
    const hooks = this.o.config().webhooks.filter((h) => h.events.includes('holder-gone'));
    for (const { hook, event } of this.holders.due(hooks, Date.now(), this.o.linkBase)) {
      const source = all.find((s) => s.id === event.lock.source);
      if (source) await this.offer(event, source, hook).catch((err: unknown) => this.log(String(err)));
    }
  }

  private hook(name: string) {
    return this.o.config().webhooks.find((h) => h.name === name);
  }

  private host(name: string): string | undefined {
    const h = this.hook(name);
    return h && new URL(h.url).host;
  }
}
