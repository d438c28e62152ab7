// npm run bench -- scale-console: the console itself over one Redis of N redis-py locks (beside N other keys), as a
// viewer meets it: the first answer while the first pass runs (with its progress), the cold index, a warm window, a
// filter, a sort and an exact name over every lock (bytes and time), the stream's bytes on connect and while idle, a
// change to a row in view reaching the stream, the console's RSS, and the locks page in Chromium (first row, JS
// heap). SCALE_CONSOLE_SIZES chooses N (default 10000,100000; add 1000000 for the million). Before this index the
// issue measured 15 MB and 1.4–1.7 s per listing at 10 000 locks, 151 MB and 21–25 s at 100 000.
import { readFileSync } from 'node:fs';
import { encode } from 'next-auth/jwt';
import type { BrowserContext } from 'playwright-core';
import { startBrowserConsole } from '../helpers/console-browser';
import { startRedis } from '../helpers/redis';
import { fillRedis } from '../helpers/scale';
import { printTable, round, writeJson } from './report';

const SIZES = (process.env.SCALE_CONSOLE_SIZES ?? '10000,100000').split(',').map(Number);
const SECRET = 'bench-secret-0123456789abcdef0123';
const VIEWER = 'viewer@demo.lockboard';
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

/** The process's resident memory now (VmRSS) or at its peak (VmHWM), in MB. */
export const rssMb = (pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
/** SCALE_CONSOLE_SOAK: seconds the console is left running its passes after the figures, then its RSS read again. */
const SOAK_S = Number(process.env.SCALE_CONSOLE_SOAK ?? 0);

export async function timedGet(url: string, cookie: string) {
  const started = performance.now();
  const res = await fetch(url, { headers: { cookie, accept: 'application/json' } });
  const text = await res.text();
  return { ms: performance.now() - started, bytes: text.length, body: JSON.parse(text) as Record<string, unknown> };
}

/** Opens the stream: bytes until its snapshot, then bytes over `idleMs`, and the time a `change` naming `lock` takes. */
export async function streamFigures(url: string, cookie: string, idleMs: number, change: () => Promise<void>) {
  const ctl = new AbortController();
  const res = await fetch(url, { headers: { cookie, accept: 'text/event-stream' }, signal: ctl.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  // one read outstanding at a time: a read that lost the race to the timer is awaited again, never abandoned (its
  // chunk would be lost and a later read would wait behind it)
  let reading: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  const readUntil = async (test: (t: string) => boolean, ms: number) => {
    const end = Date.now() + ms;
    while (!test(text) && Date.now() < end) {
      reading ??= reader.read();
      const chunk = await Promise.race([reading, new Promise<null>((r) => setTimeout(() => r(null), 250))]);
      if (chunk === null) continue;
      reading = undefined;
      if (chunk.done) break;
      bytes += chunk.value.length;
      text += decoder.decode(chunk.value);
    }
  };
  await readUntil((t) => t.includes('event: snapshot') && t.endsWith('\n\n'), 60_000);
  const connectBytes = bytes;
  text = '';
  await readUntil(() => false, idleMs);
  const idleBytes = bytes - connectBytes;
  text = '';
  const started = performance.now();
  await change();
  await readUntil((t) => /event: change[^]*"lock:0"/.test(t), 10_000);
  const changeMs = performance.now() - started;
  ctl.abort();
  return { connectBytes, idleBytesPerS: idleBytes / (idleMs / 1000), changeMs };
}

export interface Visit {
  rowMs: number;
  ttfb: number;
  fcp: number;
  heapMb: number;
}

/** A fresh browser context opens `url`: the time to its first row, where it went (first byte, paint), its JS heap. */
export async function firstRow(context: BrowserContext, url: string): Promise<Visit> {
  const page = await context.newPage();
  const opened = performance.now();
  await page.goto(url);
  await page.getByTestId('lock-rows').locator('[data-lock]').first().waitFor({ timeout: 30_000 });
  const rowMs = performance.now() - opened;
  const nav = await page.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return { ttfb: n.responseStart, fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0 };
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  const heapMb = (metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 1024 / 1024;
  await context.close();
  return { rowMs, ...nav, heapMb };
}

export async function benchScaleConsole() {
  const rows: Record<string, string | number>[] = [];
  for (const n of SIZES) {
    const r = await startRedis();
    // keyspace notifications on, as the README asks of a Redis whose changes should be pushed (Lockboard never sets it)
    await r.client.sendCommand(['CONFIG', 'SET', 'notify-keyspace-events', 'Kg$hx']);
    await fillRedis(r.client as never, n);
    const source = `redis://127.0.0.1:${r.port}/0`;
    const c = await startBrowserConsole({
      LOCKBOARD_SOURCES: source,
      NEXTAUTH_SECRET: SECRET,
      LOCKBOARD_METRICS_TOKEN: METRICS_TOKEN,
      // SCALE_CONSOLE_NODE_OPTIONS: the console's own Node flags (a heap cap, say), as a deployment would set them
      ...(process.env.SCALE_CONSOLE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SCALE_CONSOLE_NODE_OPTIONS } : {}),
    });
    try {
      const cookie = `next-auth.session-token=${await encode({ token: { email: VIEWER, sub: VIEWER }, secret: SECRET })}`;
      const api = (qs: string) => `${c.app.url}/api/locks?source=${encodeURIComponent(source)}${qs}`;
      const started = performance.now();
      const cold = await timedGet(api(''), cookie);
      const progress = (cold.body.sources as { listed: number; estimate?: number }[])[0]!;
      let complete = false;
      while (!complete) {
        await new Promise((d) => setTimeout(d, 500));
        complete = (await timedGet(api('&limit=1'), cookie)).body.complete === true;
      }
      const coldIndexS = (performance.now() - started) / 1000;
      const warm = await timedGet(api(''), cookie);
      const filter = await timedGet(api('&q=lock:4242'), cookie);
      const sort = await timedGet(api('&sort=expires&order=desc'), cookie);
      const exact = await timedGet(api(`&q=lock:${n - 1}`), cookie);
      const stream = await streamFigures(
        `${c.app.url}/api/locks/stream?source=${encodeURIComponent(source)}`,
        cookie,
        10_000,
        async () => void (await r.client.sendCommand(['SET', 'lock:0', 'f'.repeat(32), 'PX', '600000'])),
      );
      const rss = rssMb(c.app.child.pid!);
      const exposition = await (
        await fetch(`${c.app.url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
      ).text();
      const gauge = (name: string) =>
        Number(new RegExp(`^lockboard_nodejs_${name} (\\S+)`, 'm').exec(exposition)?.[1] ?? 0) / 1024 / 1024;
      const heapUsedMb = gauge('heap_size_used_bytes');
      const heapTotalMb = gauge('heap_size_total_bytes');
      const externalMb = gauge('external_memory_bytes');
      // the locks page in a fresh browser: the first visit since the console started, then another (console warm)
      const visits = [];
      for (let i = 0; i < 2; i++) visits.push(await firstRow(await c.contextAs(VIEWER), `${c.app.url}/locks`));
      const [first, warmVisit] = visits as [Visit, Visit];
      rows.push({
        locks: n,
        'first answer ms': round(cold.ms),
        'listed then': `${progress.listed}/${progress.estimate ?? '?'}`,
        'cold index s': round(coldIndexS, 1),
        'window ms / KB': `${round(warm.ms)} / ${round(warm.bytes / 1024)}`,
        'filter ms': round(filter.ms),
        'sort ms': round(sort.ms),
        'exact ms': round(exact.ms),
        'stream connect KB': round(stream.connectBytes / 1024),
        'idle B/s': round(stream.idleBytesPerS),
        'change in view ms': round(stream.changeMs),
        'console RSS MB (now / peak)': `${round(rss)} / ${round(rssMb(c.app.child.pid!, 'VmHWM'))}`,
        'console heap used / total / external MB': `${round(heapUsedMb)} / ${round(heapTotalMb)} / ${round(externalMb)}`,
        'page first row ms (first visit / warm)': `${round(first.rowMs)} / ${round(warmVisit.rowMs)}`,
        'warm: first byte / paint ms': `${round(warmVisit.ttfb)} / ${round(warmVisit.fcp)}`,
        'page heap MB': round(warmVisit.heapMb),
      });
      if (SOAK_S > 0) {
        // the listing goes on (a reconcile every 60 s with the feed): what the console holds after some passes
        await new Promise((d) => setTimeout(d, SOAK_S * 1000));
        const pid = c.app.child.pid!;
        rows[rows.length - 1]![`RSS after ${SOAK_S} s (now / peak)`] =
          `${round(rssMb(pid))} / ${round(rssMb(pid, 'VmHWM'))}`;
      }
      console.log(rows[rows.length - 1]);
    } finally {
      await c.close();
      await r.stop();
    }
  }
  printTable('Scale: the console over one Redis source (viewer)', rows);
  writeJson('scale-console', rows);
}
