// `ls --json` streams in flat memory (#51): peak RSS into a slow reader at 10 000 and 100 000 locks, on the file store
// and on Redis (test/bench/ls-rss.ts measures; `npm run bench -- ls-rss` prints the table). Generous bounds: 10×
// the locks may cost at most 1.5× the memory, never a lock-proportional amount; no timing is asserted.
import { describe, expect, it } from 'vitest';
import { measureLsRss } from '../bench/ls-rss';

describe('bounded output', () => {
  it('ls --json | slow reader: peak RSS flat from 10 000 to 100 000 locks on files and Redis', async () => {
    const rows = await measureLsRss();
    console.table(rows);
    for (const store of ['files', 'redis']) {
      const [small, big] = rows.filter((r) => r.store === store);
      expect(big!.lines, store).toBe(big!.locks + 2); // header, one line per lock, closing line: all read
      expect(big!['peak RSS MB'], `${store}: ${JSON.stringify(rows)}`).toBeLessThan(small!['peak RSS MB'] * 1.5);
      expect(big!['peak RSS MB'], store).toBeLessThan(400);
    }
  }, 900_000);
});
