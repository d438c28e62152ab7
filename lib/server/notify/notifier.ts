// The notifier of one console replica: it reads each trail every few seconds (trail-reader.ts: windows that overlap,
// wide where records carry their writer's clock), turns the records into events, claims each event for each webhook
// that wants it (claims.ts: a lease across replicas, where the store keeps them) and queues the claimed ones. It keeps
// its leases alive while it delivers, settles them, and takes over the claims of replicas that stopped keeping theirs.
// Holders gone long enough join them.
import type { AuditRecord } from '@/lib/lock/audit/record';
import { trailKey, trailsOf, type Trail } from '../audit/trails';
import type { Source } from '../sources';
import { storeFor } from '../stores';
import type { AttemptOptions } from './attempt';
import { claimFor, claimKey, DEFAULT_LEASE_MS, newOwner } from './claims';
import type { WebhooksConfig } from './config';
import { DeliveryLog } from './deliveries';
import type { NotifyEvent } from './event';
import { HolderGoneTracker } from './holder-gone';
import { HookSince } from './hook-since';
import { someGlobMatches } from '../auth/glob';
import { DeliveryQueue, type DeliveryJob, type JobState } from './queue';
import type { RetryPolicy } from './retry';
import { reportJob, sendJob } from './sender';
import { Takeovers } from './takeovers';
import { TrailReader } from './trail-reader';

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
  /** A claim's lease (default a minute): how soon another replica takes over the series of one that stopped. */
  leaseMs?: number;
  log?: (line: string) => void;
  /** Reads one trail's window (default: through the console's stores, with their timeout). */
  readTrail?: (trail: Trail, from: Date, to: Date) => Promise<AuditRecord[]>;
}

export class Notifier {
  readonly deliveries = new DeliveryLog();
  readonly holders = new HolderGoneTracker();
  readonly queue: DeliveryQueue;
  /** This replica, as its claims name it. */
  readonly owner = newOwner();
  readonly takeovers = new Takeovers();
  /** When each webhook joined each trail: a trail's records older than that are not told to it. */
  private readonly joined = new HookSince();
  private readonly trails: TrailReader;
  private readonly leaseMs: number;
  private timer: NodeJS.Timeout | undefined;
  private keeper: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private readonly log: (line: string) => void;

  constructor(private readonly o: NotifierOptions) {
    this.log = o.log ?? ((line) => console.warn(line));
    this.leaseMs = o.leaseMs ?? DEFAULT_LEASE_MS;
    this.trails = new TrailReader({ ...o, log: this.log, offer: (event, source) => this.offer(event, source) });
    this.queue = new DeliveryQueue({
      send: (job) => sendJob(this.hook(job.webhook), job, o.attempt ?? {}),
      report: (job, state) => this.report(job, state),
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
    this.keeper = setInterval(() => void this.keepLeases(), Math.max(50, this.leaseMs / 6));
    this.keeper.unref?.();
  }

  /** Stops; the series still queued are handed back (`handBack`, default), expired at once for another replica. */
  stop(o: { handBack?: boolean } = {}): Promise<void> {
    clearTimeout(this.timer);
    clearInterval(this.keeper);
    this.timer = this.keeper = undefined;
    const held = this.queue.jobs();
    this.queue.stop();
    if (o.handBack === false) return Promise.resolve();
    return Promise.all(held.map((j) => j.lease?.release(j.attempts))).then(() => undefined);
  }

  /** One pass over every trail, the claims to take over and the gone holders; concurrent calls share the pass. */
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
      // a trail's record before the webhook joined is not told to it (holder-gone, tests and takeovers name the hook)
      if (!only && Date.parse(event.at) < (await this.joined.of(store, trailKey(source), hook))) continue;
      const key = claimKey(event.id, hook.name);
      const claim = await claimFor(store, key, this.owner, this.leaseMs, this.log);
      if (claim.won) this.queue.push(hook.name, event, claim.lease);
      else if (claim.retryAt) this.takeovers.watch(key, { event, source, hook: hook.name }, claim.retryAt);
    }
  }

  private async pass(): Promise<void> {
    if (this.o.config().webhooks.length === 0) return;
    const all = this.o.sources();
    const trails = trailsOf(all, all);
    await this.join(trails);
    await Promise.all(trails.map((t) => this.trails.read(t)));
    for (const t of this.takeovers.due(Date.now()))
      await this.offer(t.event, t.source, t.hook).catch((err: unknown) => {
        this.takeovers.watch(claimKey(t.event.id, t.hook), t, Date.now() + this.leaseMs / 2);
        this.log(`[lockboard] webhooks: claim of ${t.event.id} not read (retried): ${(err as Error).message}`);
      });
    await this.tellGone(all);
  }

  /** Each webhook's first sight of each trail, marked before the trail is first read for it. */
  private async join(trails: Trail[]): Promise<void> {
    const hooks = this.o.config().webhooks;
    await Promise.all(
      trails.map(async (t) => {
        const store = await storeFor(t.sources[0]!).catch(() => undefined);
        if (store) await Promise.all(hooks.map((h) => this.joined.of(store, t.key, h)));
      }),
    );
  }

  private async tellGone(all: Source[]): Promise<void> {
    const hooks = this.o.config().webhooks.filter((h) => h.events.includes('holder-gone'));
    for (const { hook, event, told } of this.holders.due(hooks, Date.now(), this.o.linkBase)) {
      const source = all.find((s) => s.id === event.lock.source);
      if (!source) continue;
      await this.offer(event, source, hook).then(told, (err: unknown) => this.log(String(err)));
    }
  }

  /** Renews the leases a third through; a series whose claim another replica took over leaves the queue. */
  private async keepLeases(): Promise<void> {
    for (const job of this.queue.jobs()) {
      if (!job.lease || (await job.lease.keep(job.attempts))) continue;
      this.queue.remove(job);
      this.report(job, 'handed-over');
    }
  }

  /** Each state in the delivery log; a series that ended settles its claim, a dropped one hands it back. */
  private report(job: DeliveryJob, state: JobState): void {
    reportJob(this.deliveries, job, state, this.host(job.webhook), this.log);
    const { lease, event, webhook } = job;
    if (!lease || state === 'pending' || state === 'retrying' || state === 'handed-over') return;
    if (state !== 'dropped') return void lease.settle(state === 'delivered' ? 'delivered' : 'failed', job.attempts);
    void lease.release(job.attempts); // expired at once for the other replicas; this one's full queue waits a lease
    const source = this.o.sources().find((s) => s.id === event.lock.source);
    const again = Date.now() + this.leaseMs;
    const key = claimKey(event.id, webhook);
    if (source) this.takeovers.watch(key, { event, source, hook: webhook }, again, { recheck: false });
  }

  private hook(name: string) {
    return this.o.config().webhooks.find((h) => h.name === name);
  }

  private host(name: string): string | undefined {
    const h = this.hook(name);
    return h && new URL(h.url).host;
  }
}
