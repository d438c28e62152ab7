// The notifier's reading of the audit trails: each trail's next window (trail-window.ts), its records trusted (a
// record's signature says whether it is an operator's), each told once per replica (a seen set; across replicas the
// claim) and handed to `offer`. A trail that cannot be read is said once, until it is read again.
import type { AuditRecord } from '@/lib/lock/audit/record';
import { trustAuditRecords } from '@/lib/lock/audit/trust';
import { attribute, readTrailWindow, type SourcedAuditRecord, type Trail } from '../audit/trails';
import type { Source } from '../sources';
import type { NotifyEvent } from './event';
import { eventOfRecord } from './trail-events';
import { TrailWindows } from './trail-window';

const MAX_SEEN = 50_000;

interface TrailReaderOptions {
  /** How far back the first read looks (events of a restart's gap are still told, once). */
  lookbackMs?: number;
  linkBase?: string;
  /** Reads one trail's window (default: through the console's stores, with their timeout). */
  readTrail?: (trail: Trail, from: Date, to: Date) => Promise<AuditRecord[]>;
  /** Claims and queues the event; throws when its claim could not be made (the record is offered again). */
  offer(event: NotifyEvent, source: Source): Promise<void>;
  log: (line: string) => void;
}

export class TrailReader {
  private readonly seen = new Set<string>();
  /** Trails whose last read failed (logged once, until one is read again). */
  private readonly failing = new Set<string>();
  private readonly windows: TrailWindows;

  constructor(private readonly o: TrailReaderOptions) {
    this.windows = new TrailWindows(Date.now() - (o.lookbackMs ?? 10 * 60_000));
  }

  async read(trail: Trail): Promise<void> {
    const now = Date.now();
    const w = this.windows.next(trail.key, now);
    const name = trail.sources[0]?.id;
    try {
      const read = this.o.readTrail ?? readTrailWindow;
      const trusted = trustAuditRecords(await read(trail, new Date(w.from), new Date(w.to)));
      for (const r of attribute(trail, trusted)) await this.offerRecord(trail, r);
      this.windows.read(trail.key, now, w.wide, trusted);
      if (this.failing.delete(trail.key)) this.o.log(`[lockboard] webhooks: trail of ${name} read again`);
    } catch (err) {
      if (this.failing.has(trail.key)) return;
      this.failing.add(trail.key);
      this.o.log(`[lockboard] webhooks: trail of ${name} not read (retried): ${(err as Error).message}`);
    }
  }

  private async offerRecord(trail: Trail, r: SourcedAuditRecord): Promise<void> {
    const key = `${trail.key}\u0000${r.id}`;
    if (this.seen.has(key)) return;
    const source = trail.sources.find((s) => s.id === r.source);
    const event = source && eventOfRecord(trail.key, r, source, this.o.linkBase);
    if (source && event) await this.o.offer(event, source); // a failed claim throws: the record is offered again
    if (this.seen.size >= MAX_SEEN) this.seen.delete(this.seen.values().next().value!);
    this.seen.add(key);
  }
}
