// The console process being told to stop (SIGTERM from a deploy, SIGINT): what has to end first (open lock streams,
// the change feeds' subscriptions) registers here. Next.js's own handler then closes the server and exits. Signals
// are hooked at the first registration, never at import.
import 'server-only';
import { processWide } from './process-wide';

// one set of hooks and one signal handler per process, whichever bundle registers (process-wide.ts)
const state = processWide('shutdown', () => ({ hooks: new Set<() => void>(), hooked: false, stopping: false }));

/** Runs `fn` when the process is told to stop. */
export function onStop(fn: () => void): void {
  state.hooks.add(fn);
  if (state.hooked) return;
  state.hooked = true;
  const stop = () => {
    state.stopping = true;
    for (const hook of [...state.hooks]) hook();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** Whether the process was told to stop. */
export const isStopping = (): boolean => state.stopping;
