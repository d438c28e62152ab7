// Webhook delivery claims in a lock directory (one delivery per event across console replicas): an empty file
// `<audit dir>/claims/<key>` made with O_EXCL, so the first replica's open creates it and every other one's fails
// with EEXIST. Beside the trail, so as hostile as it (#51): only in directories of Lockboard's own, never through a
// link, the marker made through the checked directory's fd. Markers older than two days are removed, hourly.
import fs from 'node:fs';
import path from 'node:path';
import { CLAIM_KEY, ClaimPruner } from '../../claim-keeping';
import { holdOwnDir } from './safe-fs';

export class FileClaims {
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
        } catch {
          /* removed meanwhile (another replica's prune) */
        }
      }
    } finally {
      dir.close();
    }
  }
}
