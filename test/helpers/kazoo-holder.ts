// One kazoo Lock holder in a process of its own with a session timeout of its own (kazoo-holder.py), for tests of a
// session between connections: its events (held, SUSPENDED, CONNECTED on the same session, LOST) as they come.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { KAZOO_PYTHON, kazooMissing } from '@/lib/demo/zk-writers';

const SCRIPT = fileURLToPath(new URL('./kazoo-holder.py', import.meta.url));

export interface KazooEvent {
  event: 'held' | 'state';
  sid: string | null;
  state?: string;
  node?: string;
  timeout?: number;
}

export interface KazooHolder {
  /** The holder's process: a test kills it to end its session. */
  child: ChildProcess;
  held: KazooEvent;
  events: KazooEvent[];
  /** Resolves with the first event (already seen or to come; `i` its index) that `ok` accepts, or rejects after `ms`. */
  next(ok: (e: KazooEvent, i: number) => boolean, ms?: number): Promise<KazooEvent>;
  stop(): Promise<void>;
}

export async function startKazooHolder(hosts: string, path: string, ident: string, timeoutS: number) {
  const missing = kazooMissing();
  if (missing) throw new Error(`These tests need ${missing}`);
  const child = spawn(KAZOO_PYTHON, [SCRIPT, hosts, path, ident, String(timeoutS)], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const events: KazooEvent[] = [];
  const waiters = new Set<() => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    events.push(JSON.parse(line) as KazooEvent);
    for (const w of waiters) w();
  });
  const next = (ok: (e: KazooEvent, i: number) => boolean, ms = 30_000) =>
    new Promise<KazooEvent>((resolve, reject) => {
      const check = () => {
        const e = events.find(ok);
        if (!e) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(e);
      };
      const timer = setTimeout(
        () => (waiters.delete(check), reject(new Error(`kazoo: no such event in ${ms} ms`))),
        ms,
      );
      waiters.add(check);
      check();
    });
  const held = await next((e) => e.event === 'held');
  return {
    child,
    held,
    events,
    next,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin!.end();
      const exited = new Promise((r) => child.once('exit', r));
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  } satisfies KazooHolder;
}
