// How the demo ends, on the first Ctrl-C or SIGTERM, when start-up fails, or on an error nothing caught: every step
// of the stop registered so far runs (the console first, then the holders and the servers, then the emulator), each on
// its own (one that throws is reported and never skips the others), for at most STOP_DEADLINE_MS; then every process
// group the demo started gets SIGKILL. A second signal kills at once. Either way nothing the demo started outlives it.
import { firstLine } from './background';
import { signalAll } from './children';

/** How long a graceful stop may take before the demo's servers are killed. */
const STOP_DEADLINE_MS = 5_000;

export const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/**
 * Resolves at the first SIGINT or SIGTERM. The handlers stay for the demo's whole life, from its first line: a signal
 * with no handler would end the process at once, leaving its servers (their own process groups) running.
 */
export function stopRequested(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.on('SIGINT', () => resolve());
    process.on('SIGTERM', () => resolve());
  });
}

/** One step of a stop: `run` may throw or reject; the other steps run regardless. */
interface StopStep {
  name: string;
  run: () => unknown;
}

/** Runs every step at once, each on its own: a step that throws is reported in one line. */
export async function runSteps(steps: readonly StopStep[]): Promise<void> {
  await Promise.all(
    steps.map(async (step) => {
      try {
        await step.run();
      } catch (err) {
        console.error(`demo: stopping ${step.name}: ${firstLine(err)}`);
      }
    }),
  );
}

/** The stop of everything started so far; steps are added as their parts start. */
export class Shutdown {
  /**
   * Phase 0: the console (a client of every server: dynalite fails a scan that is under way as it closes); phase 1:
   * the holders and the servers; phase 2: the emulator (the GCS and S3 holders release their locks on it).
   */
  private readonly phases: [StopStep[], StopStep[], StopStep[]] = [[], [], []];
  private readonly kills: StopStep[] = [];
  private started = false;

  /** `run` in its phase; `kill` (at once, synchronous) when the graceful stop is past its deadline. */
  add(name: string, run: () => unknown, o: { phase?: 0 | 1 | 2; kill?: () => void } = {}): void {
    this.phases[o.phase ?? 1].push({ name, run });
    if (o.kill) this.kills.push({ name, run: o.kill });
  }

  get stopping(): boolean {
    return this.started;
  }

  /** Stops everything and exits with `code`; a second call (a crash while stopping) only reports. */
  async stop(code: number): Promise<never> {
    if (this.started) return new Promise<never>(() => {});
    this.started = true;
    const since = Date.now();
    // npm forwards the signal it got to the demo, which got Ctrl-C's SIGINT itself too: one press, two signals. A
    // second signal within a second is that echo, not a second press.
    const now = () => {
      if (Date.now() - since < 1_000) return;
      this.killAll();
      process.exit(130);
    };
    process.on('SIGINT', now);
    process.on('SIGTERM', now);
    const graceful = (async () => {
      for (const phase of this.phases) await runSteps(phase);
      return true;
    })();
    const finished = await Promise.race([graceful, pause(STOP_DEADLINE_MS).then(() => false)]);
    if (!finished) console.log(`Stopping took over ${STOP_DEADLINE_MS / 1000} s; ending what is left.`);
    this.killAll();
    console.log('Stopped.');
    process.exit(code);
  }

  /** Every kill step, each on its own, then SIGKILL to every process group the demo started. */
  private killAll(): void {
    for (const step of this.kills) {
      try {
        step.run();
      } catch (err) {
        console.error(`demo: killing ${step.name}: ${firstLine(err)}`);
      }
    }
    signalAll('SIGKILL');
  }

  /** An error nothing caught: reported in one line, then the whole stop (or, while stopping, only the line). */
  crashed(err: unknown): void {
    console.error(`demo: ${this.started ? 'while stopping' : 'unexpected error'}: ${firstLine(err)}`);
    if (!this.started) void this.stop(1);
  }
}
