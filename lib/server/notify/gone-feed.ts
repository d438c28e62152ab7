// The gone-holder tracker fed by the watchers' changes (each row as it is now); a row's `verdict` is read where the
// console judges one (#46), and a lock that went stops its clock.
import { watcherFor } from '../live/watch';
import type { Source } from '../sources';
import type { HolderGoneTracker, HolderView } from './holder-gone';

export function feedGoneHolders(sources: Source[], tracker: HolderGoneTracker): () => void {
  const stops = sources.map((source) =>
    watcherFor(source).subscribe((change) => {
      if (!change) return;
      const now = Date.now();
      for (const c of change.changes) {
        if (c.after) tracker.observe(source, [c.after as unknown as HolderView], now);
        else if (c.before) tracker.forget(source, c.before.name);
      }
    }),
  );
  return () => stops.forEach((stop) => stop());
}
