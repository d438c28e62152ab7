// Lock files in a directory (issue #38): listed with one holder scan of the machine per listing, each entry read by
// its tool's convention; force-released by the rename-verify protocol, refused while a live process holds the file;
// audited in `.lockboard/audit.jsonl` beside the locks.
import fs from 'node:fs';
import path from 'node:path';
import type { AuditRecord } from '../../audit/record';
import { LockOptionsError } from '../../errors';
import { assertVersion, notALockView, recordedRelease, type LockStore, type LockView } from '../../store';
import type { ChangeFeed, ChangeFeedHandlers, InspectOptions, ListOptions } from '../../store';
import type { ReleaseRequest, StorePage } from '../../store';
import type { StoreReleaseResult } from '../../store';
import { readEvents, recordEvent } from './audit';
import { readEntry, type Entry } from './entry';
import { FILES_VERSION } from './version';
import { startFilesFeed } from './feed';
import { readEntryAsLock } from './formats-special';
import { scanHolders, withLockTable, type HolderScan } from './proc';
import { thisHost } from './process';
import type { Context, Reading } from './reading';
import { removeIfSame } from './release';
import type { ClaimLeasing } from '../../claim-lease';
import { FileClaims } from './claim';
import type { FilesSource } from './source';
import { filesView } from './view';
import { filesTerms } from './words';
import { after, escapeNameBytes, utf8Name, walk, type Walked } from './walk';

const SCAN_REUSE_MS = 250;
/** Entries per page: a page's views are what a listing holds at once. */
const PAGE_SIZE = 1000;
/** Reasons kept per page for entries that could not be read (the rest are counted). */
const MAX_REASONS = 20;
/** Walks kept for their next page (a reader who stops asking leaves at most this many open). */
const MAX_WALKS = 8;

export class FilesLockStore implements LockStore {
  readonly kind = 'files';
  readonly versionShape = FILES_VERSION;
  readonly source: string;

  constructor(
    private readonly src: FilesSource,
    private readonly o: { longHeldMs?: number } = {},
  ) {
    this.source = src.display;
    this.claims = new FileClaims(src.audit);
  }

  private readonly claims: FileClaims;

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
   * is read afresh every time; a listing, a release and any inspection allowing no evidence age scan anew (a process
   * that opened an old file a moment ago is in no earlier scan: a release's re-judgment must see it).
   */
  private context(maxAgeMs = 0, changedMs = Infinity): Context {
    const now = Date.now();
    const age = this.lastScan ? now - this.lastScan.at : Infinity;
    const reusable =
      maxAgeMs > 0 && age <= Math.min(maxAgeMs, SCAN_REUSE_MS) && changedMs < (this.lastScan?.at ?? 0) - 5;
    if (!reusable || !this.lastScan) this.lastScan = { at: now, scan: scanHolders() };
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

  /** Walks in progress, by the page token that continues each (a page picks up where the last left off). */
  private readonly walks = new Map<string, AsyncGenerator<Walked>>();

  /**
   * One page of PAGE_SIZE entries in walk order (issue #51: a listing of 100 000 files is never held whole). The
   * token is the last name of the page; an unknown token (another process, or the walk was dropped) walks again
   * from the start and skips the names up to it.
   */
  async list(pageToken?: string, o: ListOptions = {}): Promise<StorePage> {
    const c = this.context();
    const size = Math.max(1, Math.min(o.pageSize ?? PAGE_SIZE, PAGE_SIZE));
    const it = (pageToken && this.walks.get(pageToken)) || this.startWalk(pageToken);
    if (pageToken) this.walks.delete(pageToken);
    const locks: LockView[] = [];
    const skippedWhy: string[] = [];
    let skipped = 0;
    let n = 0;
    let last: string | undefined;
    for (let r = await it.next(); !r.done; r = n >= size ? { done: true, value: undefined } : await it.next()) {
      n++;
      const e = r.value;
      last = 'skipped' in e ? e.skipped : e.name;
      const v = 'skipped' in e ? null : this.viewOrWhy(e, c);
      if (v && !('why' in v)) locks.push(v);
      else {
        skipped++;
        const why = v?.why ?? ('why' in e ? e.why : undefined);
        if (why && skippedWhy.length < MAX_REASONS) skippedWhy.push(why);
      }
      if (n % 500 === 0) await new Promise((res) => setImmediate(res)); // let the console answer meanwhile
    }
    const more = n >= size && last !== undefined;
    if (more) this.walks.set(last!, it);
    else void it.return(undefined);
    for (const [k, w] of this.walks) {
      if (this.walks.size <= MAX_WALKS) break;
      this.walks.delete(k);
      void w.return(undefined);
    }
    return {
      locks,
      skipped,
      ...(skippedWhy.length ? { skippedWhy } : {}),
      serverTime: new Date(c.nowMs).toISOString(),
      ...(more ? { nextPageToken: last } : {}),
    };
  }

  private startWalk(token?: string): AsyncGenerator<Walked> {
    const all = walk(this.src.dir, this.src.depth, this.src.audit);
    if (!token) return all;
    return (async function* () {
      for await (const e of all) if (after('skipped' in e ? e.skipped : e.name, token)) yield e;
    })();
  }

  /** The entry's view, or why it could not be read (one bad entry costs that entry, never its neighbours). */
  private viewOrWhy(e: Entry, c: Context): LockView | { why: string } | null {
    try {
      return this.view(e, c);
    } catch (err) {
      return { why: `${e.name}: ${(err as Error).message}` };
    }
  }

  /** Judged on a holder scan made now, unless `maxEvidenceAgeMs` lets a feed's burst share one a moment old. */
  async inspect(name: string, o: InspectOptions = {}): Promise<LockView | null> {
    return (await this.inspectRead(name, o.maxEvidenceAgeMs))?.view ?? null;
  }

  private async inspectRead(name: string, maxAgeMs = 0): Promise<{ view: LockView; reading?: Reading } | null> {
    if (name.split('/').some((s) => s === '..' || s === '' || s === '.'))
      throw new LockOptionsError(
        `${JSON.stringify(name)} is not a name in ${this.source}: use a path relative to the directory, without ".." (e.g. site/.git/index.lock)`,
      );
    if (!insideDir(this.src.dir, name)) return null; // through a symlinked subdirectory: not this source's
    const e = readEntry(this.src.dir, name);
    if (!e) return this.unnameable(name);
    const c = this.context(maxAgeMs, Number(e.stat.ctimeMs));
    const read = this.read(e, c);
    if (read) return read;
    const what =
      e.kind === 'dir' ? 'A directory' : e.kind === 'file' ? `A file of ${e.stat.size} bytes` : `A ${e.kind}`;
    const terms = filesTerms();
    return { view: notALockView({ kind: this.kind, source: this.source, name, what, nowMs: c.nowMs, terms }) };
  }

  /**
   * A name that is not valid UTF-8 cannot be opened by a string: asked by its escaped bytes (as `ls` counts it) or by
   * its lossy form (U+FFFD), it is "not a lock Lockboard can read", never absent (issue #51: `status` never says free).
   */
  private unnameable(name: string): { view: LockView } | null {
    const found = bytesNamed(this.src.dir, name);
    if (!found) return null;
    const what = `An entry whose name is not valid UTF-8 (${found}): Lockboard cannot open it by name; remove or rename it by its bytes, e.g. rm $'${found.replace(/'/g, "\\'")}'`;
    const terms = filesTerms();
    return { view: notALockView({ kind: this.kind, source: this.source, name, what, nowMs: Date.now(), terms }) };
  }

  /** A create-only marker beside the trail, or its lease (claim.ts): see LockStore. */
  claim(key: string, lease?: ClaimLeasing): Promise<boolean> {
    if (lease) return lease(this.claims);
    return Promise.resolve().then(() => this.claims.claim(key));
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
    try {
      return Promise.resolve(readEvents(this.src.audit, from, to, lock));
    } catch (err) {
      return Promise.reject(err as Error); // a trail that is not Lockboard's own: unreadable, in its own words
    }
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
      const r = await removeIfSame(target, member?.name ?? o.name, o.version, `${this.src.audit}/release`);
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

/** The escaped bytes of the non-UTF-8 entry `name` asks for (by its escaped or its lossy form), or undefined. */
function bytesNamed(dir: string, name: string): string | undefined {
  const parts = name.split('/');
  const base = parts.pop()!;
  let names: Buffer[];
  try {
    names = fs.readdirSync(path.join(dir, ...parts), { encoding: 'buffer' });
  } catch {
    return undefined;
  }
  for (const raw of names) {
    if (utf8Name(raw) !== null) continue;
    const shown = escapeNameBytes(raw);
    if (shown === base || raw.toString('utf8') === base) return [...parts, shown].join('/');
  }
  return undefined;
}

function removeEmptyDir(p: string) {
  try {
    fs.rmdirSync(p);
  } catch {
    /* a new holder is inside, or it is gone */
  }
}
