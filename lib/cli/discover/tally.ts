// What one root's sampled listing holds, grouped by the first part of each lock's name (`envs/`, `lock:`, a
// namespace), with the formats `ls` names for them: the evidence a candidate source is shown with.
import { isListedLock, type LockView } from '../../lock/store';

/** Groups kept per root: past this, further groups are folded into the root itself (memory stays bounded). */
const MAX_GROUPS = 200;

export interface Candidate {
  /** The source as `ls` and LOCKBOARD_SOURCES take it (never with credentials). */
  source: string;
  locks: number;
  /** Locks by format, as `ls` names them ("terraform", "lockboard", "redlock"). */
  formats: Record<string, number>;
  /** Keys, objects or rows read under the root this was found in, and the store's estimate of all of them. */
  sampled: number;
  estimate?: number;
  /** A bound stopped the listing of this root before its end: there may be more. */
  capped: boolean;
  /** Where a source found without listing was named (a Terraform backend block and its file). */
  evidence?: string[];
}

/** The group of a lock's name under its source: up to and including its first "/" or ":" after a name ("" when none). */
function groupOf(name: string, prefix: string): string {
  const rest = name.startsWith(prefix) ? name.slice(prefix.length) : name;
  // leading slashes stay: etcd's `/locks/` and `locks/` are different prefixes
  const m = /^\/*[^/:]+[/:]/.exec(rest);
  return m ? m[0] : '';
}

export class RootTally {
  readonly groups = new Map<string, Map<string, number>>();
  sampled = 0;

  /**
   * `seen`: the locks already counted under an earlier root of the target. A lock some store lists under every root
   * (a MySQL named lock is the server's, listed with each database) is counted once, where it was first seen.
   */
  constructor(
    readonly prefix: string,
    private readonly seen: Set<string>,
  ) {}

  add(locks: LockView[], skipped: number): void {
    this.sampled += locks.length + skipped;
    for (const view of locks) {
      if (!isListedLock(view)) continue;
      const key = `${view.format}\u0000${view.name}\u0000${view.version}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      let group = groupOf(view.name, this.prefix);
      if (!this.groups.has(group) && this.groups.size >= MAX_GROUPS) group = '';
      const formats = this.groups.get(group) ?? new Map<string, number>();
      formats.set(view.format, (formats.get(view.format) ?? 0) + 1);
      this.groups.set(group, formats);
    }
  }

  /** The candidates found: one per source, groups that narrow to the same source merged. */
  candidates(sourceOf: (group: string) => string, o: { estimate?: number; capped: boolean }): Candidate[] {
    const bySource = new Map<string, Candidate>();
    for (const [group, formats] of this.groups) {
      const source = sourceOf(group);
      const c = bySource.get(source) ?? { source, locks: 0, formats: {}, sampled: this.sampled, capped: o.capped };
      if (o.estimate !== undefined) c.estimate = o.estimate;
      for (const [format, n] of formats) {
        c.formats[format] = (c.formats[format] ?? 0) + n;
        c.locks += n;
      }
      bySource.set(source, c);
    }
    return [...bySource.values()];
  }
}
