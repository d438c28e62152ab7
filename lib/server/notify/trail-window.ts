// Which window of a trail the notifier reads next. Each read starts a little before the last one (OVERLAP_MS), so a
// record the store dated a moment before it became readable is still seen. Where a record's time is its writer's
// clock (DynamoDB, etcd, lock files, Kubernetes: `at_from` reported or signed), a writer minutes slow writes records
// already behind that window: such a trail (and one whose clock is not known yet, having shown no record) is also
// read back WIDE_MS once a minute. Records read twice are told once (the notifier's seen set, then the claim).
import type { AuditRecord } from '@/lib/lock/audit/record';

export const OVERLAP_MS = 2 * 60_000;
/** How slow a writer's clock may be and its records still be told (a minute late at most). */
export const WIDE_MS = 15 * 60_000;
export const WIDE_EVERY_MS = 60_000;

export class TrailWindows {
  private readonly since = new Map<string, number>();
  private readonly wideAt = new Map<string, number>();
  /** Trails whose records carry the store's own time: never read wide. */
  private readonly storeClocked = new Set<string>();

  constructor(
    /** The first read of each trail looks back to here (a restart's gap is told). */
    private readonly firstFrom: number,
  ) {}

  /** The window to read now (to a minute ahead: a writer's clock may be fast). */
  next(key: string, now: number): { from: number; to: number; wide: boolean } {
    const last = this.since.get(key);
    if (last === undefined) return { from: this.firstFrom, to: now + 60_000, wide: true };
    const wide = !this.storeClocked.has(key) && now - (this.wideAt.get(key) ?? 0) >= WIDE_EVERY_MS;
    return { from: wide ? Math.min(last, now - WIDE_MS) : last, to: now + 60_000, wide };
  }

  /** The window `next` gave at `now` was read whole, with these records. */
  read(key: string, now: number, wide: boolean, records: readonly AuditRecord[]): void {
    this.since.set(key, now - OVERLAP_MS);
    if (wide) this.wideAt.set(key, now);
    if (records.some((r) => r.at_from === 'reported' || r.at_from === 'signed')) this.storeClocked.delete(key);
    else if (records.length > 0) this.storeClocked.add(key);
  }
}
