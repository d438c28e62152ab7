// The client-go leader-election candidate (scripts/kube-leader/main.go, built by scripts/kube-apiserver.sh) as a test
// drives it: started with a kubeconfig, its event lines (NEW_LEADER, LEADING, STOPPED) collected, stopped by signal
// (SIGTERM: client-go's ReleaseOnCancel clears the Lease; SIGKILL: a dead leader that clears nothing).
import { spawn, type ChildProcess } from 'node:child_process';
import { delay } from './requests';

export interface Candidate {
  child: ChildProcess;
  lines: string[];
  /** Resolves at the first line starting with `prefix` (after `since` lines), with when it came. */
  waitFor(prefix: string, ms?: number, since?: number): Promise<number>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function startCandidate(
  bin: string,
  kubeconfig: string,
  o: { namespace: string; name: string; id: string; retry?: string; lease?: string; renewDeadline?: string },
  children: ChildProcess[],
): Candidate {
  const child = spawn(
    bin,
    [
      '--kubeconfig',
      kubeconfig,
      '--namespace',
      o.namespace,
      '--name',
      o.name,
      '--id',
      o.id,
      '--retry-period',
      o.retry ?? '1s',
      '--lease-duration',
      o.lease ?? '15s',
      '--renew-deadline',
      o.renewDeadline ?? '10s',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  children.push(child);
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    lines.push(...parts);
    waiters.splice(0).forEach((w) => w());
  });
  return {
    child,
    lines,
    async waitFor(prefix, ms = 20_000, since = 0) {
      const end = Date.now() + ms;
      for (;;) {
        if (lines.slice(since).some((l) => l.startsWith(prefix))) return Date.now();
        if (Date.now() > end) throw new Error(`${o.id} printed no "${prefix}" in ${ms} ms: ${lines.join(' | ')}`);
        await Promise.race([new Promise<void>((r) => waiters.push(r)), delay(100)]);
      }
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await Promise.race([exited, delay(5_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
