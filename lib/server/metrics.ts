// In-process counters for /api/metrics (each replica reports its own; Prometheus sums them).
import 'server-only';

export const counters = {
  /** Listings (one store page each) by store and source. */
  lists: new Map<string, { store: string; source: string; n: number }>(),
  forceReleases: new Map<string, number>(),
  listSeconds: { sum: 0, count: 0 },
};

export function countList(store: string, source: string): void {
  const key = `${store}\u0000${source}`;
  const entry = counters.lists.get(key) ?? { store, source, n: 0 };
  entry.n++;
  counters.lists.set(key, entry);
}

export function countForceRelease(outcome: string): void {
  counters.forceReleases.set(outcome, (counters.forceReleases.get(outcome) ?? 0) + 1);
}

export function observeList(seconds: number): void {
  counters.listSeconds.sum += seconds;
  counters.listSeconds.count += 1;
}
