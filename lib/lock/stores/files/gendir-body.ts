// The generation file of Lockboard's own lock in a directory (facts-files §8.4): `<dir>/<job>.lockd/<gen>.json`, a
// unique name never reused, whose body never changes (liveness is its mtime, refreshed by utimes on the path).
export const LOCKD_SUFFIX = '.lockd';
export const GEN_SUFFIX = '.json';

export interface Generation {
  v: 1;
  tool: 'lockboard';
  job: string;
  owner: string;
  purpose?: string;
  host: string;
  pid: number;
  ttlMs: number;
  gen: string;
  /** Fencing token: the generation file's creation time in ns, so each holder's is larger than the last's. */
  token: string;
  created: string;
}

export function parseGeneration(body: Buffer): Generation | null {
  try {
    const g = JSON.parse(body.toString()) as Partial<Generation>;
    if (g.tool !== 'lockboard' || typeof g.ttlMs !== 'number' || typeof g.pid !== 'number') return null;
    if (typeof g.host !== 'string' || typeof g.owner !== 'string' || typeof g.token !== 'string') return null;
    return g as Generation;
  } catch {
    return null;
  }
}
