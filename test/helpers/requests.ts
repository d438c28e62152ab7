import type { Emulator, RequestLogEntry } from '@/lib/emulator';

/** The requests that touched one object name (metadata, PATCH, DELETE by path; uploads by `name`). */
export function requestsFor(emulator: Emulator, name: string): RequestLogEntry[] {
  return emulator.requests.entries.filter((e) => objectNameOf(e) === name);
}

export function objectNameOf(e: RequestLogEntry): string | undefined {
  if (e.path.startsWith('/upload/')) return e.query.name;
  const m = /\/o\/(.+)$/.exec(e.path);
  return m ? decodeURIComponent(m[1]!) : undefined;
}

export function describeRequests(entries: RequestLogEntry[]): string[] {
  return entries.map((e) => {
    const pre = ['ifGenerationMatch', 'ifMetagenerationMatch'].filter((k) => e.query[k] !== undefined);
    return `${e.method} ${e.path.startsWith('/upload/') ? 'upload' : 'object'}${pre.length ? ` [${pre.join(',')}]` : ''} ${e.status}`;
  });
}

export const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves when `signal` aborts; rejects after `ms`. */
export function abortedWithin(signal: AbortSignal, ms: number): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    if (signal.aborted) return resolve(0);
    const timer = setTimeout(() => reject(new Error(`signal did not abort within ${ms} ms`)), ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve(performance.now() - start);
    });
  });
}
