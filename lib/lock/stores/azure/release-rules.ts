// What an Azure force-release decides besides its mutation: whether a newer version seen is the same holder (the same
// lease id: its own state write since, so alive) or a successor, and what the trail records of the attempt.
import type { LockView, ReleaseRequest } from '../../store';
import type { AzureReading } from './formats';
import type { AzureVersion } from './version';

/** A newer version of the lock: the same lease id (the holder wrote its state since) is alive, anything else changed. */
export function judge(now: AzureReading, seen: AzureVersion): 'refreshed' | 'changed' {
  return seen.leaseId !== undefined && now.leaseId === seen.leaseId ? 'refreshed' : 'changed';
}

export function judgeView(now: LockView, seen: AzureVersion): 'refreshed' | 'changed' {
  return seen.leaseId !== undefined && now.generation === seen.leaseId ? 'refreshed' : 'changed';
}

export function fieldsOf(v: LockView, r: AzureReading, req: ReleaseRequest): Record<string, string> {
  return {
    version: v.version,
    operator: req.operator,
    reason: req.reason,
    format: v.format,
    etag: v.version.split('.')[0]!,
    lease: r.duration,
    ...(r.leaseId ? { lease_id: r.leaseId } : { break_period: '0' }),
    ...(v.identity ? { identity: v.identity } : {}),
  };
}
