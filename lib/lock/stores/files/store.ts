// Lock files in a directory (issue #38): listed with one holder scan of the machine per listing, each entry read by
// its tool's convention; force-released by the rename-verify protocol, refused while a live process holds the file;
// audited in `.lockboard/audit.jsonl` beside the locks.
import fs from 'node:fs';
import path from 'node:path';
import type { AuditRecord } from '../../audit/record';
import { LockOptionsError } from '../../errors';
import { assertVersion, notALockView, recordedRelease, type LockStore, type LockView } from '../../store';
import type { ChangeFeed, ChangeFeedHandlers, ReleaseRequest, StorePage, StoreReleaseResult } from '../../store';
import { readEvents, recordEvent } from './audit';
import { readEntry, type Entry } from './entry';
import { FILES_VERSION } from './version';
import { startFilesFeed } from './feed';
import { readEntryAsLock } from './formats-special';
import { scanHolders, withLockTable, type HolderScan } from './proc';
import { thisHost } from './process';
import type { Context, Reading } from './reading';
import { removeIfSame } from './release';
import type { FilesSource } from './source';
import { filesView } from './view';
import { filesTerms } from './words';
import { walk } from './walk';

const SCAN_REUSE_MS = 250;

export class FilesLockStore implements LockStore {
  readonly kind = 'files';
  readonly versionShape = FILES_VERSION;
  readonly source: string;

  constructor(
    private readonly src: FilesSource,
    private readonly o: { longHeldMs?: number } = {},
  ) {
    this.source = src.display;
  }

  now(): number {
    return Date.now();
  }

  async close(): Promise<void> {}

  changes(handlers: ChangeFeedHandlers): Promise<ChangeFeed | null> {
    return Promise.resolve(startFilesFeed(this.src, handlers));
  }

  private lastScan: { at: number; scan: HolderScan } | undefined;

  /**
   * One holder scan of the machine. Inspections in a burst (a feed's changes) share its open files up to 250 ms old
   * (each holder found is still checked alive) for files that last changed before it began: a file created since
   * (a new holder's O_EXCL file) is judged by a new scan, never called stale for want of one. The kernel's lock table
   * is read afresh every time, and a listing or a release always scans anew.
   */
  private context(fresh = true, changedMs = Infinity): Context {
    const now = Date.now();
    const reusable = this.lastScan && now - this.lastScan.at <= SCAN_REUSE_MS && changedMs < this.lastScan.at - 5;
    if (fresh || !reusable || !this.lastScan) this.lastScan = { at: now, scan: scanHolders() };
    else this.lastScan.scan = withLockTable(this.lastScan.scan);
    return { scan: this.lastScan.scan, host: thisHost(), nowMs: now };
  }

  private view(e: Entry, c: Context): LockView | null {
    return this.read(e, c)?.view ?? null;
  }

  private read(e: Entry, c: Context): { view: LockView; reading: Reading } | null {
    const reading = readEntryAsLock(e, c);
    if (!reading) return null;
    const o = { source: this.source, dir: this.src.dir, nowMs: c.nowMs, longHeldMs: this.o.longHeldMs };
    return { view: filesView(e, reading, o), reading };
  }

  async list(): Promise<StorePage> {
    const c = this.context();
    const locks: LockView[] = [];
    let skipped = 0;
    let n = 0;
    for (const e of walk(this.src.dir, this.src.depth, this.src.audit)) {
      if (++n % 2000 === 0) await new Promise((r) => setImmediate(r)); // let the console answer meanwhile
      const v = e === 'skipped' ? null : this.view(e, c);
      if (v) locks.push(v);
      else skipped++;
    }
    return { locks, skipped, serverTime: new Date(c.nowMs).toISOString() };
  }

  async inspect(name: string): Promise<LockView | null> {
    return (await this.inspectRead(name, false))?.view ?? null;
  }

  private async inspectRead(name: string, fresh = true): Promise<{ view: LockView; reading?: Reading } | null> {
    if (name.split('/').some((s) => s === '..' || s === '' || s === '.'))
      throw new LockOptionsError(
        `${JSON.stringify(name)} is not a name in ${this.source}: use a path relative to the directory, without ".." (e.g. site/.git/index.lock)`,
      );
    if (!insideDir(this.src.dir, name)) return null; // through a symlinked subdirectory: not this source's
    const e = readEntry(this.src.dir, name);
    if (!e) return null;
    const c = this.context(fresh, Number(e.stat.ctimeMs));
    const read = this.read(e, c);
    if (read) return read;
    const what =
      e.kind === 'dir' ? 'A directory' : e.kind === 'file' ? `A file of ${e.stat.size} bytes` : `A ${e.kind}`;
    const terms = filesTerms();
    return { view: notALockView({ kind: this.kind, source: this.source, name, what, nowMs: c.nowMs, terms }) };
  }

  /** A create-only marker beside the trail (O_EXCL): true for the one that created it. */
  async claim(key: string): Promise<boolean> {
    const dir = path.join(this.src.audit, 'claims');
    await fs.promises.mkdir(dir, { recursive: true });
    try {
      await fs.promises.writeFile(path.join(dir, key), '', { flag: 'wx' });
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
  }

  record(fields: Record<string, string>): Promise<string> {
    try {
      // The directory each record is of, since several sources may record into one ?audit= directory
      return Promise.resolve(recordEvent(this.src.audit, { ...fields, container: this.src.dir }));
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  readAudit(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    return Promise.resolve(readEvents(this.src.audit, from, to, lock));
  }

  /** Refused while a live process holds it; otherwise removed only if it is still exactly the file seen. */
  async forceRelease(o: ReleaseRequest): Promise<StoreReleaseResult> {
    assertVersion(this, o.version);
    const read = await this.inspectRead(o.name);
    if (!read) return { outcome: 'gone', current: null, audit: [] };
    const { view: before, reading } = read;
    if (!before.releasable || !reading) return { outcome: 'not-a-lock', current: before, audit: [] };
    const fields: Record<string, string> = {
      version: o.version,
      operator: o.operator,
      reason: o.reason,
      format: before.format,
    };
    const trail = {
      lock: o.name,
      trail: this.src.audit,
      fields,
      record: (f: Record<string, string>) => this.record(f),
    };
    const member = reading.member;
    const target = member?.path ?? path.join(this.src.dir, o.name);
    let detail: string | undefined;
    const result = await recordedRelease(trail, async () => {
      if (before.version === o.version && reading.status === 'live') {
        detail = before.releaseNote.replace(/^Refused while held: /, '');
        fields.detail = detail; // recorded with the outcome
        return { outcome: 'refreshed', current: before };
      }
      const r = removeIfSame(target, member?.name ?? o.name, o.version, `${this.src.audit}/release`);
      if (r.outcome === 'changed' && r.detail) fields.detail = detail = r.detail;
      if (r.outcome === 'changed' && r.side) fields.side = r.side; // where the displaced successor's file was kept
      if (r.outcome === 'released' && member) removeEmptyDir(`${this.src.dir}/${o.name}`);
      return {
        outcome: r.outcome,
        current: r.outcome === 'released' ? null : ((await this.inspectRead(o.name))?.view ?? null),
      };
    });
    return { ...result, ...(detail ? { detail } : {}), ...(result.outcome === 'released' ? { released: before } : {}) };
  }
}

function insideDir(dir: string, name: string): boolean {
  const parent = path.dirname(path.join(dir, name));
  try {
    const real = fs.realpathSync(parent);
    return real === fs.realpathSync(dir) || real.startsWith(fs.realpathSync(dir) + path.sep);
  } catch {
    return true; // a parent that does not exist: readEntry answers null
  }
}

function removeEmptyDir(p: string) {
  try {
    fs.rmdirSync(p);
  } catch {
    /* a new holder is inside, or it is gone */
  }
}
