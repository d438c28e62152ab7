// Lockboard's own lock on MySQL: a named lock, `lockboard/<name>`, on a dedicated connection. Chosen over a table
// because it is what Flyway and Rails use on this server: liveness is exactly the holder's connection (a crashed run
// frees it at once, with no TTL to guess), two runs can never both hold it (the server grants one GET_LOCK per name),
// and an operator clears it the way every named lock is cleared (the guarded KILL). The fencing token comes from a
// counter row in lockboard_fence, so it grows across server restarts too. The release is recorded in lockboard_audit.
import { createHash } from 'node:crypto';
import { releasedEvent, type Outcome } from '../../holding/hold';
import type { MysqlAuditTrail } from './audit';
import type { Db } from './client';
import { PolledLock } from '../sql/polled-lock';

/** GET_LOCK names are at most 64 characters on MySQL 8: a longer lock name keeps its start and a digest. */
export function namedLockOf(name: string): string {
  const full = `lockboard/${name}`;
  if (full.length <= 64) return full;
  return `lockboard/${name.slice(0, 40)}~${createHash('sha256').update(name).digest('hex').slice(0, 13)}`;
}

export const FENCE_DDL = `CREATE TABLE IF NOT EXISTS lockboard_fence (
  name VARCHAR(255) NOT NULL PRIMARY KEY,
  token BIGINT NOT NULL
)`;

export class MysqlLock extends PolledLock<Outcome> {
  protected readonly goneDetail = 'the named lock is no longer held by this connection';

  constructor(
    private readonly o: { db: Db; name: string; lock: string; trail?: MysqlAuditTrail; checkIntervalMs?: number },
    fencingToken: string,
  ) {
    super(o.name, fencingToken, o.checkIntervalMs);
  }

  protected async stillOurs(): Promise<boolean> {
    const [r] = await this.o.db.rows<{ mine: number | null }>('SELECT IS_USED_LOCK(?) = CONNECTION_ID() AS mine', [
      this.o.lock,
    ]);
    return Number(r?.mine) === 1;
  }

  /** RELEASE_LOCK, then the outcome (with the error when the work failed) in lockboard_audit. */
  protected async releaseOurs(outcome: Outcome = { failed: false }): Promise<boolean> {
    const [r] = await this.o.db.rows<{ ok: number | null }>('SELECT RELEASE_LOCK(?) AS ok', [this.o.lock]);
    const ours = Number(r?.ok) === 1;
    await this.o.trail
      ?.record(releasedEvent(`named:${this.o.lock}`, this.fencingToken, outcome, ours))
      .catch(() => undefined); // the lock is released: a trail that cannot be written does not undo that
    return ours;
  }
}
