// A holder's loss deadline on the local monotonic clock: every confirmed refresh pushes it back (from the moment
// that refresh was sent); when it passes without one, the lock counts as lost even if no request ever failed.
import { monotonicNow } from '../../time';

export class LossDeadline {
  private timer?: NodeJS.Timeout;

  constructor(
    /** How long after a confirmed write, without another, the lock counts as lost. */
    readonly afterMs: number,
    private confirmedAt: number,
    /** Whether the holder still holds (the timer does nothing, and stops, once it does not). */
    private readonly holding: () => boolean,
    private readonly onPassed: (detail: string) => void,
  ) {}

  /** A write sent at `sentAt` (monotonic) was confirmed. */
  confirm(sentAt: number): void {
    this.confirmedAt = sentAt;
  }

  get passed(): boolean {
    return monotonicNow() - this.confirmedAt >= this.afterMs;
  }

  arm(): void {
    clearTimeout(this.timer);
    const remaining = this.afterMs - (monotonicNow() - this.confirmedAt);
    this.timer = setTimeout(
      () => {
        if (!this.holding()) return;
        if (this.passed) this.onPassed(`no refresh confirmed for ${Math.round(monotonicNow() - this.confirmedAt)} ms`);
        else this.arm();
      },
      Math.max(0, remaining),
    );
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
