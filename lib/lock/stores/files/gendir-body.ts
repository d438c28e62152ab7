// The generation file of Lockboard's own lock in a directory (facts-files §8.4): `<dir>/<job>.lockd/<gen>.json`, a
// unique name never reused, whose body never changes (liveness is its mtime, refreshed by utimes on the path). Bodies
// written before #56 have no pidNs, bootId or pidStart: their holders are taken over by the TTL only.
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
  /** The holder's pid namespace (inode of /proc/self/ns/pid): its pid names a process only in that namespace. */
  pidNs?: number;
  /** The holder's boot (/proc/sys/kernel/random/boot_id): its pid and start mean nothing in another boot. */
  bootId?: string;
  /** The holder's start in clock ticks since boot (/proc/self/stat field 22): another start is another process. */
  pidStart?: string;
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
    // the holder's identity is evidence only when well formed; else it is dropped and the TTL decides
    if (typeof g.pidNs !== 'number') delete g.pidNs;
    if (typeof g.bootId !== 'string') delete g.bootId;
    if (typeof g.pidStart !== 'string' || !/^\d+$/.test(g.pidStart)) delete g.pidStart;
    return g as Generation;
  } catch {
    return null;
  }
}
