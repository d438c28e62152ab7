// One stop for many simulated holders without one AbortSignal shared by all of them: every holder loop gets a signal
// of its own, and stopping aborts each. A single shared signal collected one abort listener per waiting loop (eleven
// at once in the demo: Node's MaxListenersExceededWarning), and any listener a loop forgot would have stayed on it
// for the life of the demo; here a loop's listeners live and die with that loop's own signal.
export class Stopper {
  private readonly controllers = new Set<AbortController>();
  private stopped = false;

  /** A signal for one loop; aborted by `stop()` (at once when the stop already happened). */
  signal(): AbortSignal {
    const controller = new AbortController();
    if (this.stopped) controller.abort();
    else this.controllers.add(controller);
    return controller.signal;
  }

  get aborted(): boolean {
    return this.stopped;
  }

  stop(): void {
    this.stopped = true;
    for (const c of this.controllers) c.abort();
    this.controllers.clear();
  }
}
