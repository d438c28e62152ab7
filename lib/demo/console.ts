// Starts the built console (`next start`) with a given configuration, for the demo and the browser tests.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface ConsoleProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

const ROOT = join(import.meta.dirname, '..', '..');
/** The standalone server `next build` writes: the same file the container runs. */
export const SERVER = join(ROOT, '.next', 'standalone', 'server.js');

/** True when `.next` is missing or older than any source file of the console. */
export function needsBuild(): boolean {
  const marker = join(ROOT, '.next', 'BUILD_ID');
  if (!existsSync(marker) || !existsSync(SERVER) || !existsSync(join(ROOT, '.next', 'standalone', '.next', 'static')))
    return true;
  const built = statSync(marker).mtimeMs;
  const newer = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((d) => {
      const p = join(dir, d.name);
      return d.isDirectory() ? newer(p) : statSync(p).mtimeMs > built;
    });
  const configs = [
    'next.config.mjs',
    'postcss.config.mjs',
    'tsconfig.json',
    'package-lock.json',
    'instrumentation.ts',
    'proxy.ts',
  ];
  const configChanged = configs.some((f) => existsSync(join(ROOT, f)) && statSync(join(ROOT, f)).mtimeMs > built);
  return configChanged || ['app', 'components', 'lib'].some((d) => newer(join(ROOT, d)));
}

/** `npm run build`: next build (standalone output), then the static files copied next to the standalone server. */
export function buildConsole(): void {
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error('the console build (npm run build) failed; see the output above');
}

/** Where the console's output goes besides `output()`: a log file, and its warnings and errors echoed to stderr. */
export interface ConsoleLog {
  file: string;
  /** Each warning or error line, e.g. printed by the demo with a prefix. */
  onProblem: (line: string) => void;
}

/** A line of the console's output that an operator must see: its warnings and errors (Node's and ours). */
const PROBLEM = /\b(warn(ing)?|error|unreachable|unreadable|failed|exception)\b|^\s*⨯/i;

/** Splits output chunks into whole lines and hands each warning or error line on (a line may span two chunks). */
export function problemLines(onProblem: (line: string) => void): (chunk: string) => void {
  let partial = '';
  return (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (PROBLEM.test(line)) onProblem(line);
  };
}

export async function startConsole(
  port: number,
  env: Record<string, string>,
  host = '127.0.0.1',
  log?: ConsoleLog,
): Promise<ConsoleProcess> {
  const url = `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      NEXTAUTH_URL: url,
      PORT: String(port),
      HOSTNAME: host,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  if (log) mkdirSync(dirname(log.file), { recursive: true });
  const file = log && createWriteStream(log.file, { flags: 'a' });
  const problems = log && problemLines(log.onProblem);
  const take = (d: Buffer) => {
    const text = d.toString();
    output += text;
    file?.write(text);
    problems?.(text);
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  child.once('exit', () => file?.end());
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the console exited during start-up:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the console did not answer /api/health within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
