// What every held lock of Lockboard's own protocol shares, whatever keeps it alive (a refresh loop, a session, a
// connection, a lease): its name, `signal` aborted with a LockLostError at the first loss, a 'lost' event, one
// ending (lost or released, never both), and `await using`. A store supplies only its own calls: what it stops
// (timers, watchers) when the holding ends, and its release.
import { LockLostError, type LockLostReason } from '../errors';

export abstract class HeldLock extends EventTarget {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  /** Lost or released: no further loss is reported. */
  protected done = false;

  constructor(readonly name: string) {
    super();
    this.signal = this.controller.signal;
  }

  /** Clears what keeps the holding checked (timers, watchers); called once, when the holding ends. */
  protected abstract stopWatching(): void;

  abstract release(): Promise<unknown>;

  /** The lock is lost (once): stops watching, aborts `signal` with the reason and dispatches 'lost'. */
  protected lose(reason: LockLostReason, detail: string): void {
    if (this.done) return;
    this.done = true;
    this.stopWatching();
    const error = new LockLostError(this.name, reason, detail);
    this.controller.abort(error);
    this.dispatchEvent(new CustomEvent('lost', { detail: error }));
  }

  /** Ends the holding, as a release first does (alone, it is a crash): false when it had already ended (lost, released). */
  protected stop(): boolean {
    if (this.done) return false;
    this.done = true;
    this.stopWatching();
    return true;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }
}
