// npm run bench -- scale-demo: #63's done-when check. The whole demo (`npm run demo`: every store it can start, its
// holders, its console over every source; on the console build as it stands, scale-demo-run.ts) on free ports, then SCALE_DEMO_LOCKS (default 1 000 000) redis-py locks
// written into the demo's Redis beside as many cache keys, as a viewer meets them: the time until the console has
// indexed every lock and until its pass is complete, its RSS once indexed and at peak, a window, a filter and an
// exact name over every lock, the stream's bytes on connect, and the locks page's first row in Chromium. The machine's
// load average is printed beside the figures (its cores are shared).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { PORT_FLAGS } from '@/lib/demo/options';
import { freePort, launchBrowser } from '../helpers/browser';
import { fillRedis } from '../helpers/scale';
import { printTable, round, writeJson } from './report';
import { firstRow, rssMb, streamFigures, timedGet, type Visit } from './scale-console';

const LOCKS = Number(process.env.SCALE_DEMO_LOCKS ?? 1_000_000);
const VIEWER = { email: 'viewer@demo.lockboard', password: 'viewer' };
const step = (what: string) => console.log(`[scale-demo ${new Date().toISOString()}] ${what}`);
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** The pid of the demo's console: the standalone server among the demo's descendants (Next.js renames its process). */
function consolePid(root: number): number {
  const parents = new Map<number, number>();
  const servers: number[] = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (/standalone\/server\.js|^next-server/.test(readFileSync(`/proc/${name}/cmdline`, 'utf8')))
        servers.push(Number(name));
    } catch {
      // gone while read
    }
  }
  const under = (pid: number): boolean => pid > 1 && (parents.get(pid) === root || under(parents.get(pid) ?? 0));
  const pid = servers.find(under);
  if (!pid) throw new Error("the demo's console process was not found under the demo");
  return pid;
}

interface Demo {
  child: ChildProcess;
  ports: Record<string, number>;
  dataDir: string;
  output(): string;
}

/** `npm run demo` on free ports and a data directory of its own, once its banner says it is up. */
async function startDemo(): Promise<Demo> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lockboard-scale-demo-'));
  chmodSync(dataDir, 0o755); // PostgreSQL runs as its own user
  const ports: Record<string, number> = {};
  const args = ['--import', 'tsx', 'test/bench/scale-demo-run.ts', '--data-dir', dataDir];
  for (const flag of Object.keys(PORT_FLAGS)) args.push(`--${flag}`, String((ports[flag] = await freePort())));
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  // the demo's own lines go on to this output too (what it started, what failed)
  child.stdout!.on('data', (d: Buffer) => ((output += d.toString()), process.stdout.write(d)));
  child.stderr!.on('data', (d: Buffer) => ((output += d.toString()), process.stderr.write(d)));
  for (let i = 0; i < 9000 && !output.includes('Press Ctrl-C') && child.exitCode === null; i++)
    await new Promise((r) => setTimeout(r, 100));
  if (!output.includes('Press Ctrl-C')) throw new Error(`the demo did not start:\n${output}`);
  return { child, ports, dataDir, output: () => output };
}

async function stopDemo(d: Demo): Promise<void> {
  const exited = new Promise((r) => d.child.once('exit', r));
  d.child.kill('SIGTERM');
  await exited;
  rmSync(d.dataDir, { recursive: true, force: true });
}

/** Polls the source's window of one until every lock is indexed, then until its pass is complete (seconds each). */
async function untilIndexed(api: (qs: string) => string, cookie: string, started: number) {
  let indexedS = 0;
  let polls = 0;
  for (;;) {
    await new Promise((d) => setTimeout(d, 500));
    const { body } = await timedGet(api('&limit=1'), cookie);
    if (++polls % 60 === 0) step(`total ${String(body.total)}, complete ${String(body.complete)}`);
    if (!indexedS && Number(body.total) >= LOCKS) indexedS = (performance.now() - started) / 1000;
    if (indexedS && body.complete === true)
      return { indexedS, completeS: (performance.now() - started) / 1000, total: Number(body.total) };
  }
}

async function measure(d: Demo, cookie: string, visit: () => Promise<Visit>) {
  const pid = consolePid(d.child.pid!);
  const source = `redis://127.0.0.1:${d.ports['redis-port']}/0`;
  const consoleUrl = `http://127.0.0.1:${d.ports.port}`;
  const api = (qs: string) => `${consoleUrl}/api/locks?source=${encodeURIComponent(source)}${qs}`;
  const load = loadAverage();
  const before = rssMb(pid);
  step(`console pid ${pid}, RSS ${round(before)} MB; writing ${LOCKS} locks`);
  const client = createClient({ url: source });
  client.on('error', () => {}); // the demo's Redis stops with the demo: a closed socket then is no crash
  await client.connect();
  const filled = performance.now();
  await fillRedis(client as never, LOCKS);
  const fillS = (performance.now() - filled) / 1000;
  step(`written in ${round(fillS)} s; indexing`);
  const started = performance.now();
  const first = await timedGet(api(''), cookie);
  const indexed = await untilIndexed(api, cookie, started);
  const rss = rssMb(pid);
  step(
    `indexed (${indexed.total}) in ${round(indexed.indexedS)} s, complete at ${round(indexed.completeS)} s; RSS ${round(rss)} MB`,
  );
  const window = await timedGet(api(''), cookie);
  const filter = await timedGet(api('&q=lock:4242'), cookie);
  const exact = await timedGet(api(`&q=lock:${LOCKS - 1}`), cookie);
  const stream = await streamFigures(
    `${consoleUrl}/api/locks/stream?source=${encodeURIComponent(source)}`,
    cookie,
    10_000,
    async () => void (await client.set('lock:0', 'f'.repeat(32), { PX: 600_000 })),
  );
  const visits = [await visit(), await visit()];
  await client.quit();
  return {
    locks: LOCKS,
    'load average': load,
    'fill s': round(fillS),
    'first answer ms': round(first.ms),
    'indexed s / complete s (total)': `${round(indexed.indexedS)} / ${round(indexed.completeS)} (${indexed.total})`,
    'console RSS MB before / indexed / peak': `${round(before)} / ${round(rss)} / ${round(rssMb(pid, 'VmHWM'))}`,
    'window ms / KB': `${round(window.ms)} / ${round(window.bytes / 1024)}`,
    'filter ms': round(filter.ms),
    'exact ms': round(exact.ms),
    'stream connect KB': round(stream.connectBytes / 1024),
    'idle B/s': round(stream.idleBytesPerS),
    'change in view ms': round(stream.changeMs),
    'page first row ms (first / warm)': `${round(visits[0]!.rowMs)} / ${round(visits[1]!.rowMs)}`,
    'page heap MB': round(visits[1]!.heapMb),
    'load average after': loadAverage(),
  };
}

export async function benchScaleDemo() {
  const browser = await launchBrowser();
  step('starting the demo');
  const d = await startDemo();
  step('the demo is up; signing in');
  try {
    const consoleUrl = `http://127.0.0.1:${d.ports.port}`;
    // the viewer signs in on the login page, as a person would; the session cookie then serves the API too
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/login`);
    await page.fill('input[name=email]', VIEWER.email);
    await page.fill('input[name=password]', VIEWER.password);
    await page.click('button[type=submit]');
    await page.waitForURL('**/locks');
    const cookies = await context.storageState();
    const cookie = cookies.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const source = encodeURIComponent(`redis://127.0.0.1:${d.ports['redis-port']}/0`);
    const visit = async () => {
      const fresh = await browser.newContext({ viewport: { width: 1400, height: 900 }, storageState: cookies });
      return firstRow(fresh, `${consoleUrl}/locks?source=${source}`);
    };
    const row = await measure(d, cookie, visit);
    console.log(row);
    printTable(`Scale: the whole demo with ${LOCKS} redis-py locks in its Redis (viewer)`, [row]);
    writeJson('scale-demo', [row]);
  } finally {
    await stopDemo(d);
    await browser.close();
  }
}
