// Lockboard's own lock on MySQL: a named lock, `lockboard/<name>`, on a dedicated connection. Chosen over a table
// because it is what Flyway and Rails use on this server: liveness is exactly the holder's connection (a crashed run
// frees it at once, with no TTL to guess), two runs can never both hold it (the server grants one GET_LOCK per name),
// and an operator clears it the way every named lock is cleared (the guarded KILL). The fencing token comes from a
// counter row in lockboard_fence, so it grows across server restarts too. The release is recorded in lockboard_audit.
import { createHash } from 'node:crypto';
import { LockLostError } from '../../errors';
import { releasedEvent, type Outcome } from '../../holding/hold';
import type { MysqlAuditTrail } from './audit';
import type { Db } from './client';

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

export class MysqlLock extends EventTarget {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private done = false;

  constructor(
    private readonly o: { db: Db; name: string; lock: string; trail?: MysqlAuditTrail; checkIntervalMs?: number },
    readonly fencingToken: string,
  ) {
    super();
    this.signal = this.controller.signal;
    this.timer = setInterval(() => void this.check(), o.checkIntervalMs ?? 5_000);
    this.timer.unref?.();
  }

  get name(): string {
    return this.o.name;
  }

  /** Still ours? Another holder means an operator ended our connection; a failed query, that it is gone. */
  async check(): Promise<boolean> {
    if (this.done) return false;
    try {
      const [r] = await this.o.db.rows<{ mine: number | null }>('SELECT IS_USED_LOCK(?) = CONNECTION_ID() AS mine', [
        this.o.lock,
      ]);
      if (Number(r?.mine) === 1) return true;
      this.lose('released-by-operator', 'the named lock is no longer held by this connection');
    } catch (err) {
      this.lose('refresh-failed', `the holder's connection failed: ${(err as Error).message}`);
    }
    return false;
  }

  private lose(reason: 'released-by-operator' | 'refresh-failed', detail: string): void {
    if (this.done) return;
    this.done = true;
    clearInterval(this.timer);
    this.controller.abort(new LockLostError(this.o.name, reason, detail));
  }

  /** RELEASE_LOCK, then the outcome (with the error when the work failed) in lockboard_audit. */
  async release(outcome: Outcome = { failed: false }): Promise<'released' | 'already-lost'> {
    if (this.done) return 'already-lost';
    this.done = true;
    clearInterval(this.timer);
    const [r] = await this.o.db.rows<{ ok: number | null }>('SELECT RELEASE_LOCK(?) AS ok', [this.o.lock]);
    const ours = Number(r?.ok) === 1;
    await this.o.trail
      ?.record(releasedEvent(`named:${this.o.lock}`, this.fencingToken, outcome, ours))
      .catch(() => undefined); // the lock is released: a trail that cannot be written does not undo that
    return ours ? 'released' : 'already-lost';
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }
}
