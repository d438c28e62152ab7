// Webhook delivery claims in a lock directory (one delivery per event across console replicas): an empty file
// `<audit dir>/claims/<key>` made with O_EXCL, so the first replica's open creates it and every other one's fails
// with EEXIST. Beside the trail, so as hostile as it (#51): only in directories of Lockboard's own, never through a
// link, the marker made through the checked directory's fd. Markers older than two days are removed, hourly. As leases
// (claim-lease.ts), with O_EXCL creates only: the claim is a directory `claims/<key>/` of Lockboard's own whose files
// `1`, `2`, … are its writes; the first is created by one replica, a write on version `n` creates `n+1`, which fails
// with EEXIST for every writer but one, so a replace is still one conditional write; a read takes the highest file.
// `1` is kept while the claim is (creating it is the claim), the writes before the last two are removed.
import fs from 'node:fs';
import path from 'node:path';
import type { ClaimRecords } from '../../claim-lease';
import { CLAIM_KEY, ClaimPruner } from '../../claim-keeping';
import { holdOwnDir } from './safe-fs';

export class FileClaims implements ClaimRecords {
  private readonly pruner = new ClaimPruner((cutoffMs) => this.prune(cutoffMs));

  constructor(private readonly audit: string) {}

  /** True for the one caller that created the marker. */
  claim(key: string, keepMs?: number): boolean {
    const dir = holdOwnDir(this.audit, 'claims', 'claims');
    try {
      const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
      fs.closeSync(fs.openSync(path.join(dir.at, key), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644));
      this.pruner.maybe(keepMs); // after a claim made, as every store's (it opens the folder again, later)
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    } finally {
      dir.close();
    }
  }

  async create(key: string, body: string): Promise<string | null> {
    if (this.legacy(key)) return null;
    return this.write(key, 1, body);
  }

  async replace(key: string, body: string, version: string): Promise<string | null> {
    return this.legacy(key) ? null : this.write(key, Number(version) + 1, body);
  }

  async read(key: string): Promise<{ body: string; version: string } | null> {
    const legacy = this.legacy(key);
    if (legacy !== false) return legacy ? { body: '', version: '0' } : null;
    const dir = holdOwnDir(path.join(this.audit, 'claims'), key, 'claims');
    try {
      const n = Math.max(
        0,
        ...fs
          .readdirSync(dir.at)
          .filter((f) => /^\d+$/.test(f))
          .map(Number),
      );
      if (n === 0) return null; // made, its first write not yet: absent for now
      const body = fs.readFileSync(path.join(dir.at, String(n)), 'utf8');
      return { body, version: String(n) };
    } finally {
      dir.close();
    }
  }

  /** A create-only marker of before leases (a file) is true; a lease's directory false; nothing undefined. */
  private legacy(key: string): boolean | undefined {
    const dir = holdOwnDir(this.audit, 'claims', 'claims');
    try {
      const st = fs.lstatSync(path.join(dir.at, key));
      return !st.isDirectory();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /** The write `n` of the claim (O_EXCL): its version, or null where another replica made it first. */
  private write(key: string, n: number, body: string): string | null {
    const dir = holdOwnDir(path.join(this.audit, 'claims'), key, 'claims');
    try {
      const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
      const fd = fs.openSync(path.join(dir.at, String(n)), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644);
      try {
        fs.writeSync(fd, body);
      } finally {
        fs.closeSync(fd);
      }
      // `1` stays (its O_EXCL is what makes the claim once); writes two before this one go
      if (n >= 4) fs.rmSync(path.join(dir.at, String(n - 2)), { force: true });
      if (n === 1) this.pruner.maybe();
      return String(n);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return null;
      throw err;
    } finally {
      dir.close();
    }
  }

  /** Removes the markers last modified before `cutoffMs`: regular files named as keys, through the checked fd. */
  private prune(cutoffMs: number): void {
    const dir = holdOwnDir(this.audit, 'claims', 'claims');
    try {
      for (const name of fs.readdirSync(dir.at)) {
        if (!CLAIM_KEY.test(name)) continue;
        const p = path.join(dir.at, name);
        try {
          const s = fs.lstatSync(p);
          if (s.isFile() && s.mtimeMs < cutoffMs) fs.unlinkSync(p);
          // a lease's directory: its last write (the directory's mtime) that old, its writes and then itself
          if (s.isDirectory() && s.mtimeMs < cutoffMs) {
            for (const f of fs.readdirSync(p)) if (/^\d+$/.test(f)) fs.unlinkSync(path.join(p, f));
            fs.rmdirSync(p);
          }
        } catch {
          /* removed meanwhile (another replica's prune) */
        }
      }
    } finally {
      dir.close();
    }
  }
}
