// The console process being told to stop (SIGTERM from a deploy, SIGINT): what has to end first (open lock streams,
// the change feeds' subscriptions) registers here. Next.js's own handler then closes the server and exits. Signals
// are hooked at the first registration, never at import.
import 'server-only';

const hooks = new Set<() => void>();
let hooked = false;
let stopping = false;

/** Runs `fn` when the process is told to stop. */
export function onStop(fn: () => void): void {
  hooks.add(fn);
  if (hooked) return;
  hooked = true;
  const stop = () => {
    stopping = true;
    for (const hook of [...hooks]) hook();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** Whether the process was told to stop. */
export const isStopping = (): boolean => stopping;
