// Every process the demo starts, in a process group of its own and recorded here, so that one stop reaches all of
// them and whatever they started (an `sh -c` and its command, a git hook, PostgreSQL's backends, etcdctl's children):
// a signal to the group, never to a name. Whatever is still running when the demo's process exits, for any reason
// (a crash, process.exit, the end of a stop), gets SIGKILL from the exit handler.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

const groups = new Set<ChildProcess>();

/** Sends `signal` to `child`'s process group; false when nothing of it is left. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false; // the group is gone (ESRCH)
  }
}

/** Sends `signal` to every group the demo started that is still running (SIGKILL: the last step of a stop). */
export function signalAll(signal: NodeJS.Signals = 'SIGKILL'): void {
  for (const child of groups) signalGroup(child, signal);
}

/** `spawn` in a group of the demo's own (detached from the terminal's; the demo's signals stop it, in order). */
export function spawnGroup(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  groups.add(child);
  // a group outlives its leader when the leader leaves children behind: killed once more as the leader exits
  child.once('exit', () => {
    signalGroup(child, 'SIGKILL');
    groups.delete(child);
  });
  child.once('error', () => groups.delete(child));
  return child;
}

/** SIGTERM to the group, SIGKILL after `graceMs` if anything of it is left; resolves when the leader has exited. */
export async function stopGroup(child: ChildProcess, graceMs = 3_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

process.once('exit', () => signalAll('SIGKILL'));
