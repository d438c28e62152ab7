import type { Lock } from '@/lib/lock';
import type { Target } from './gcs';

/** Lock options for `locks/<name>` on the target, with short test timings and audit off unless overridden. */
export function lockOptions(t: Target, defaults: { ttlMs: number; refreshIntervalMs: number }) {
  return (name: string, extra: Record<string, unknown> = {}) => ({
    storage: t.storage,
    bucket: t.bucket,
    name: `locks/${name}`,
    ...defaults,
    audit: false as const,
    ...extra,
  });
}

/**
 * Simulates a holder that crashed (or froze) while holding: its handle stops refreshing and releasing, without
 * the DELETE a release would send. Tests that need a separate process use helpers/crash.ts instead.
 */
export function freezeHolder(lock: Lock): void {
  (lock as unknown as { state: string }).state = 'frozen';
}

export function thawHolder(lock: Lock): void {
  (lock as unknown as { state: string }).state = 'held';
}
