import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/lockboard.mjs', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function startCli(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return startCli(args, env).done;
}

/**
 * `lockboard ls ARGS` as a table and as `--json`: each lock's VERDICT cell (without its "(one read)" note) beside the
 * verdict the JSON gives it, by name, for a test to compare.
 */
export async function lsVerdicts(args: string[], env: Record<string, string>) {
  const json = await runCli(['ls', ...args, '--json'], env);
  const { locks } = JSON.parse(json.stdout) as { locks: { name: string; verdict?: string }[] };
  const table = await runCli(['ls', ...args], env);
  const [header = '', ...rows] = table.stdout.split('\n');
  const column = header.indexOf('VERDICT');
  const cellOf = (name: string) =>
    rows
      .find((r) => r.startsWith(`${name} `))
      ?.slice(column)
      .replace(/ \(one read\)$/, '');
  return {
    code: table.code,
    stderr: table.stderr,
    locks: locks.map((l) => ({ json: l.verdict, table: cellOf(l.name) })),
  };
}
