// Lockboard's lock on DynamoDB (docs/stores.md): an item in the lock-client layout (ownerName, leaseDuration in ms,
// recordVersionNumber) plus `lockboard`, `expiresAt` on the service's clock and a fencing `token`. Each refresh is one
// UpdateItem conditioned on the holder's recordVersionNumber (a new one each time); release is one conditional
// DeleteItem. Loss is pushed through `signal` (a failed condition, or the monotonic deadline before the lease ends).
import { randomUUID } from 'node:crypto';
import { RefreshingLock, type RefreshResult } from '../../holding/refreshing-lock';
import type { DynamoTable } from './table';

export interface DynamoLockSettings {
  name: string;
  identity: string;
  purpose?: string;
  ttlMs: number;
  refreshIntervalMs: number;
}

export class DynamoLock extends RefreshingLock {
  constructor(
    private readonly table: DynamoTable,
    private readonly settings: DynamoLockSettings,
    private rvn: string,
    private readonly token: bigint,
  ) {
    // DynamoDB's Date header has whole seconds: loss is declared at least a second before the lease ends
    super(settings.name, settings.ttlMs, settings.refreshIntervalMs, Math.max(1_000, settings.ttlMs / 8));
  }

  /** The fencing token: larger for every later holder of this lock. */
  get fencingToken(): string {
    return String(this.token);
  }

  protected async refreshOnce(): Promise<RefreshResult> {
    const next = randomUUID();
    const expiresAt = String(Math.round(this.table.clock.now() + this.settings.ttlMs));
    let ok: boolean;
    try {
      ok = await this.table.updateIf(this.settings.name, 'SET #rvn = :next, #exp = :exp', {
        expression: '#rvn = :rvn',
        names: { '#rvn': 'recordVersionNumber', '#exp': 'expiresAt' },
        values: { ':rvn': { S: this.rvn }, ':next': { S: next }, ':exp': { N: expiresAt } },
      });
    } catch {
      return 'retry'; // throttled, 5xx, network: the next refresh tries again (the deadline guards)
    }
    if (ok) {
      this.rvn = next;
      return 'ok';
    }
    const current = await this.table.get(this.settings.name).catch(() => undefined);
    if (current === undefined) return 'retry';
    if (current?.recordVersionNumber?.S === next) {
      this.rvn = next; // our own write whose response was lost
      return 'ok';
    }
    if (!current) return { lost: 'released-by-operator', detail: 'the lock item was deleted' };
    return { lost: 'taken', detail: `now held by ${current.ownerName?.S ?? 'another writer'}` };
  }

  /** One DeleteItem conditioned on our recordVersionNumber, after any refresh in flight. */
  async release(): Promise<'released' | 'already-lost'> {
    if (!(await this.stopForRelease())) return 'already-lost';
    const deleted = await this.table.deleteIf(this.settings.name, {
      expression: '#rvn = :rvn',
      names: { '#rvn': 'recordVersionNumber' },
      values: { ':rvn': { S: this.rvn } },
    });
    return deleted ? 'released' : 'already-lost';
  }
}
