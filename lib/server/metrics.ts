// In-process counters for /api/metrics (each replica reports its own; Prometheus sums them).
import 'server-only';

export const counters = {
  gcsRequests: new Map<string, number>(),
  forceReleases: new Map<string, number>(),
  listSeconds: { sum: 0, count: 0 },
};

export function countGcs(operation: string): void {
  counters.gcsRequests.set(operation, (counters.gcsRequests.get(operation) ?? 0) + 1);
}

export function countForceRelease(outcome: string): void {
  counters.forceReleases.set(outcome, (counters.forceReleases.get(outcome) ?? 0) + 1);
}

export function observeList(seconds: number): void {
  counters.listSeconds.sum += seconds;
  counters.listSeconds.count += 1;
}
