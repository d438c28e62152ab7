// Lockboard's lock on Azure (docs/stores.md): a fixed blob lease whose id is the holder's token, renewed in the
// background; its owner, TTL and token in the blob's metadata, kept after release (the next holder's token is larger).
// Azure ends a fixed lease within its duration (15–60 s) unless it is renewed, so the TTL is the lease's. Loss (a
// renewal refused, or none confirmed in time) is pushed through `signal`.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { RefreshingLock, type RefreshResult } from '../../holding/refreshing-lock';
import type { AzureBlobs } from './blobs';
import { azureCode, azureStatus } from './errors';
import { lowerKeys } from './formats';

export interface AzureLockSettings {
  name: string;
  identity: string;
  purpose?: string;
  /** The lease's duration (15–60 s, ms): the lock's TTL. */
  ttlMs: number;
  refreshIntervalMs: number;
}

/** The fixed lease for a requested TTL: Azure grants 15–60 s. */
export function leaseSecondsFor(ttlMs: number): number {
  return Math.min(60, Math.max(15, Math.ceil(ttlMs / 1000)));
}

/**
 * A lease id that is also a fencing token: a GUID whose first 16 hex digits count up (Azure's clock in µs, or one
 * above the previous holder's), so later holders' ids sort after earlier ones as strings.
 */
export function nextToken(previous: string | undefined, nowMs: number): string {
  const prev = previous && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/.test(previous) ? previous : undefined;
  const before = prev ? BigInt(`0x${prev.replace(/-/g, '').slice(0, 16)}`) : 0n;
  const floor = BigInt(Math.floor(nowMs)) * 1000n;
  const count = (before + 1n > floor ? before + 1n : floor).toString(16).padStart(16, '0');
  const rest = randomBytes(8).toString('hex');
  return `${count.slice(0, 8)}-${count.slice(8, 12)}-${count.slice(12, 16)}-${rest.slice(0, 4)}-${rest.slice(4)}`;
}

/** Metadata values are HTTP header values: printable ASCII only. */
const ascii = (s: string) => s.replace(/[^\x20-\x7e]/g, '?').slice(0, 256);

export function heldMetadata(s: AzureLockSettings, token: string, acquiredMs: number): Record<string, string> {
  return {
    format: 'lockboard/1',
    identity: ascii(s.identity),
    host: ascii(hostname()),
    pid: String(process.pid),
    ...(s.purpose ? { purpose: ascii(s.purpose) } : {}),
    ttl_ms: String(s.ttlMs),
    refresh_ms: String(s.refreshIntervalMs),
    token,
    acquired_ms: String(Math.round(acquiredMs)),
  };
}

export type AzureReleaseOutcome = 'released' | 'already-lost';

export class AzureLock extends RefreshingLock {
  constructor(
    private readonly blobs: AzureBlobs,
    private readonly settings: AzureLockSettings,
    private readonly leaseId: string,
  ) {
    super(settings.name, settings.ttlMs, settings.refreshIntervalMs, Math.max(2_000, settings.ttlMs / 8));
  }

  /** The fencing token: the lease id, larger (as a string) for every later holder. */
  get fencingToken(): string {
    return this.leaseId;
  }

  /** One lease renewal; refused → lost (a break, a release by an operator, the blob deleted), else retried. */
  protected async refreshOnce(): Promise<RefreshResult> {
    try {
      await this.blobs.renewLease(this.settings.name, this.leaseId);
      return 'ok';
    } catch (err) {
      const status = azureStatus(err);
      const code = azureCode(err) ?? String(status);
      if (status === 404) return { lost: 'released-by-operator', detail: 'the lock blob was deleted' };
      if (code === 'LeaseIsBrokenAndCannotBeRenewed' || code === 'LeaseNotPresentWithLeaseOperation')
        return { lost: 'released-by-operator', detail: `the lease was broken or released (${code})` };
      if (status === 409) return this.lostTo(code);
      return 'retry';
    }
  }

  /** A renewal refused (409): the lease released or broken by an operator, or another holder's now. */
  private async lostTo(code: string): Promise<RefreshResult> {
    const now = await this.blobs.head(this.settings.name).catch(() => undefined);
    if (now === undefined) return 'retry';
    if (!now || (now.leaseState !== 'leased' && now.leaseState !== 'breaking'))
      return { lost: 'released-by-operator', detail: `the lease was released or broken (${code})` };
    const holder = lowerKeys(now.metadata).identity;
    return { lost: 'taken', detail: `now held by ${holder ?? 'another lease'} (${code})` };
  }

  /** Releases the lease (the blob and its token stay for the next holder), after any renewal in flight. */
  async release(): Promise<AzureReleaseOutcome> {
    if (!(await this.stopForRelease())) return 'already-lost';
    try {
      await this.blobs.releaseLease(this.settings.name, this.leaseId);
      return 'released';
    } catch (err) {
      const status = azureStatus(err);
      if (status === 412 || status === 409 || status === 404) return 'already-lost';
      throw err;
    }
  }
}
