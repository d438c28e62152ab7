// On-disk persistence: a journal appended and fsynced before each response, compacted into a snapshot.
// A crash mid-append leaves at most a torn last line, which is ignored on load: it was never acknowledged.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ObjectStore, StoreListener } from './objects';
import type { StoredBucket, StoredObject } from '../types';

type Record_ = Omit<StoredObject, 'data'> & { data: string };
type JournalEntry =
  | { t: 'bucket'; bucket: StoredBucket }
  | { t: 'drop-bucket'; name: string }
  | { t: 'object'; bucket: string; name: string; live: Record_ | null; noncurrent: Record_[] };

const COMPACT_AFTER = 5_000;

export class Persistence implements StoreListener {
  private fd: number;
  private entries = 0;
  private readonly journalPath: string;
  private readonly snapshotPath: string;

  constructor(
    private readonly dir: string,
    private readonly store: ObjectStore,
  ) {
    fs.mkdirSync(dir, { recursive: true });
    this.journalPath = path.join(dir, 'journal.ndjson');
    this.snapshotPath = path.join(dir, 'snapshot.json');
    this.load();
    this.fd = fs.openSync(this.journalPath, 'a');
    store.listener = this;
  }

  bucketChanged(bucket: StoredBucket | null, name: string): void {
    this.append(bucket ? { t: 'bucket', bucket } : { t: 'drop-bucket', name });
  }

  objectChanged(bucket: string, name: string, live: StoredObject | undefined, noncurrent: StoredObject[]): void {
    this.append({
      t: 'object',
      bucket,
      name,
      live: live ? toRecord(live) : null,
      noncurrent: noncurrent.map(toRecord),
    });
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  private append(entry: JournalEntry): void {
    fs.writeSync(this.fd, JSON.stringify(entry) + '\n');
    fs.fdatasyncSync(this.fd);
    if (++this.entries >= COMPACT_AFTER) this.compact();
  }

  private load(): void {
    if (fs.existsSync(this.snapshotPath)) {
      const snapshot = JSON.parse(fs.readFileSync(this.snapshotPath, 'utf8')) as JournalEntry[];
      for (const entry of snapshot) this.apply(entry);
    }
    if (!fs.existsSync(this.journalPath)) return;
    const text = fs.readFileSync(this.journalPath, 'utf8');
    const complete = text.lastIndexOf('\n') + 1;
    if (complete < text.length) {
      // A torn final line was never acknowledged: cut it so later appends start on a fresh line.
      console.warn(`[emulator] dropping a torn last line of ${this.journalPath}`);
      fs.truncateSync(this.journalPath, Buffer.byteLength(text.slice(0, complete)));
    }
    const lines = text.slice(0, complete).split('\n');
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        this.apply(JSON.parse(line) as JournalEntry);
        this.entries++;
      } catch {
        console.warn(`[emulator] ignoring a torn journal line in ${this.journalPath}`);
      }
    }
  }

  private apply(entry: JournalEntry): void {
    if (entry.t === 'bucket') this.store.restoreBucket(entry.bucket);
    else if (entry.t === 'drop-bucket') this.store.removeBucket(entry.name);
    else
      this.store.restoreObject(
        entry.bucket,
        entry.name,
        entry.live ? fromRecord(entry.live) : undefined,
        entry.noncurrent.map(fromRecord),
      );
  }

  /** Writes the whole state to a new snapshot (write, fsync, rename), then empties the journal. */
  private compact(): void {
    const snapshot: JournalEntry[] = [];
    for (const { info, objects } of this.store.entries()) {
      snapshot.push({ t: 'bucket', bucket: info });
      for (const [name, live, noncurrent] of objects) {
        snapshot.push({
          t: 'object',
          bucket: info.name,
          name,
          live: live ? toRecord(live) : null,
          noncurrent: noncurrent.map(toRecord),
        });
      }
    }
    const tmp = `${this.snapshotPath}.tmp`;
    const fd = fs.openSync(tmp, 'w');
    fs.writeSync(fd, JSON.stringify(snapshot));
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(tmp, this.snapshotPath);
    const dirFd = fs.openSync(this.dir, 'r');
    fs.fsyncSync(dirFd);
    fs.closeSync(dirFd);
    // Replaying the old journal over the new snapshot is harmless (entries are whole states), so truncate last.
    fs.ftruncateSync(this.fd, 0);
    fs.fsyncSync(this.fd);
    this.entries = 0;
  }
}

function toRecord(obj: StoredObject): Record_ {
  return { ...obj, data: obj.data.toString('base64') };
}

function fromRecord(rec: Record_): StoredObject {
  return { ...rec, data: Buffer.from(rec.data, 'base64') };
}
