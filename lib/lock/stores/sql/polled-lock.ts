// What Lockboard's locks on PostgreSQL and MySQL share: the lock lives as long as the holder's connection, so nothing
// is refreshed; every `checkIntervalMs` (default 5 s) the holder asks the server whether the lock is still its own. No
// longer held means an operator released it; a failed query, that the holder's connection is gone. Each store
// supplies its own check and its own release.
import { HeldLock } from '../../holding/held-lock';

export abstract class PolledLock<Ending> extends HeldLock {
  private readonly timer: NodeJS.Timeout;

  constructor(
    name: string,
    readonly fencingToken: string,
    checkIntervalMs = 5_000,
  ) {
    super(name);
    this.timer = setInterval(() => void this.check(), checkIntervalMs);
    this.timer.unref?.();
  }

  /** Whether the server still has the lock as ours (throws when the connection failed). */
  protected abstract stillOurs(): Promise<boolean>;
  /** How the store says the lock is no longer ours, e.g. `its row was released`. */
  protected abstract readonly goneDetail: string;
  /** The store's release statement(s): true when it released our lock, false when it was no longer ours. */
  protected abstract releaseOurs(ending?: Ending): Promise<boolean>;

  /** Still ours? Checked now; a loss is pushed through `signal`. */
  async check(): Promise<boolean> {
    if (this.done) return false;
    try {
      if (await this.stillOurs()) return true;
      this.lose('released-by-operator', this.goneDetail);
    } catch (err) {
      this.lose('refresh-failed', `the holder's connection failed: ${(err as Error).message}`);
    }
    return false;
  }

  protected stopWatching(): void {
    clearInterval(this.timer);
  }

  async release(ending?: Ending): Promise<'released' | 'already-lost'> {
    if (!this.stop()) return 'already-lost';
    return (await this.releaseOurs(ending)) ? 'released' : 'already-lost';
  }
}
