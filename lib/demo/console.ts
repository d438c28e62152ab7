// Starts the built console (`next start`) with a given configuration, for the demo and the browser tests.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { consoleAnswers } from './answers';
import { signalGroup, spawnGroup, stopGroup } from './children';

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
  const changed = (p: string): boolean =>
    statSync(p).isDirectory() ? readdirSync(p).some((n) => changed(join(p, n))) : statSync(p).mtimeMs > built;
  const configs = [
    'next.config.mjs',
    'postcss.config.mjs',
    'tsconfig.json',
    'package-lock.json',
    'instrumentation.ts',
    'proxy.ts',
  ];
  const configChanged = configs.some((f) => existsSync(join(ROOT, f)) && changed(join(ROOT, f)));
  // lib/demo is the demo's own code, never the console's: editing it needs no build
  const lib = readdirSync(join(ROOT, 'lib')).filter((d) => d !== 'demo');
  return configChanged || ['app', 'components', ...lib.map((d) => join('lib', d))].some((d) => changed(join(ROOT, d)));
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

/**
 * Measured: `npm run build` takes about 10 minutes on a fresh 2-core machine (10 min 40 s for a first run; less on
 * more cores); the next start skips it.
 */
function buildEstimate(cores = availableParallelism()): string {
  const minutes = Math.max(1, Math.round(20 / Math.min(cores, 8)));
  return `about ${minutes} minute${minutes === 1 ? '' : 's'} on ${cores} core${cores === 1 ? '' : 's'}`;
}

/** `npm run build` as the demo runs it: says so first, with how long it takes, then the time so far every 30 s. */
export async function buildWithProgress(everyMs = 30_000): Promise<void> {
  console.log(
    `Building the console (first run, or its sources changed): ${buildEstimate()}; later runs start in seconds.`,
  );
  const started = Date.now();
  const child = spawnGroup('npm', ['run', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  const elapsed = () => {
    const s = Math.round((Date.now() - started) / 1000);
    return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  };
  const ticker = setInterval(() => console.log(`  ... still building the console: ${elapsed()} so far`), everyMs);
  const code = await new Promise<number | null>((resolve) => {
    child.once('exit', (c) => resolve(c));
    child.once('error', () => resolve(null));
  });
  clearInterval(ticker);
  if (code !== 0) throw new Error('the console build (npm run build) failed; see the output above');
  console.log(`Console built in ${elapsed()}.`);
}

/** Where the console's output goes besides `output()`: a log file, and its warnings and errors echoed to stderr. */
interface ConsoleLog {
  file: string;
  /** Each warning or error line, e.g. printed by the demo with a prefix. */
  onProblem: (line: string) => void;
}

/**
 * A log that starts fresh for this run: the previous run's kept beside it as `FILE.1` (one generation), so the file
 * holds this run's output only and never grows across runs.
 */
export function freshLog(file: string): void {
  if (existsSync(file)) renameSync(file, `${file}.1`);
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
  const child = spawnGroup(process.execPath, [SERVER], {
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
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the console exited during start-up:\n${output}`);
    if (await consoleAnswers(url)) break;
    if (Date.now() > deadline) {
      signalGroup(child, 'SIGKILL');
      throw new Error(`the console did not answer /api/health and /login within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    child,
    output: () => output,
    // SIGTERM, then SIGKILL if it is still running 3 s later (a server busy on its event loop never runs its handler)
    stop: () => stopGroup(child, 3_000),
  };
}
