// Regular lock files, recognised from what each tool writes (facts-files §1): a kernel lock (FileLock, fasteners,
// flock(1), apt), an O_EXCL file kept open (the seed's MachineLock, SoftFileLock), SoftFileLock's pid/host body,
// lockfile-progs / dotlockfile, procmail, pid files. Anything else is not a lock.
import type { Entry } from './entry';
import { judgePid, pidElsewhere, type PidClaim } from './pid-check';
import { startToken } from './process';
import { heldBy, holdersOf, noHolder, type Context, type Reading } from './reading';

const LOCKFILE_PROGS_MS = 300_000; // liblockfile: valid for 5 minutes after the last touch
const GIT_GC_PID_MS = 12 * 3_600_000; // builtin/gc.c: a gc.pid older than 12 hours is ignored

const claimOf = (pid: number, host: string | undefined, e: Entry): PidClaim => ({
  pid,
  file: { mtimeMs: Number(e.stat.mtimeMs), dev: e.stat.dev, path: e.path },
  hostKnown: host !== undefined,
});

/** A pid named in a file, judged on this host only: stale only on proof (pid-check.ts). */
function byPid(r: Omit<Reading, 'status' | 'why'>, pid: number, host: string | undefined, e: Entry, c: Context) {
  if (host !== undefined && host !== c.host)
    return {
      ...r,
      status: 'unknown' as const,
      why: `Written on host ${host}: whether pid ${pid} is alive there cannot be seen from ${c.host}; a look on ${host} settles it.`,
    };
  const v = judgePid(claimOf(pid, host, e), c.scan);
  if (v.status === 'live') return { ...r, status: 'live' as const, holder: v.info, why: `${cap(v.why)}.` };
  if (v.status === 'unknown') return { ...r, status: 'unknown' as const, why: `${cap(v.why)}.` };
  return { ...r, status: 'stale' as const, basis: 'absence' as const, why: `Stale: ${v.why}.` };
}

const cap = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

export function readLockFile(e: Entry, c: Context): Reading | null {
  const h = holdersOf(e, c.scan);
  const base = { details: [] as [string, string][] };
  if (h.kernel.length) {
    const kinds = h.kernel.map((k) => k.kind);
    const label = kinds.includes('FLOCK')
      ? 'flock lock file (filelock FileLock, flock(1))'
      : 'fcntl lock file (fasteners, lockf, apt)';
    return heldBy({ ...base, format: 'kernel-lock', label }, h);
  }
  if (!e.read) return null;
  const text = e.body.toString('latin1');
  const isLockName = /(^|[./_-])lock$|\.lock$|LOCK$/i.test(e.name.split('/').pop()!);
  if (e.stat.size === 0n) {
    if (!isLockName) return null;
    const r = { ...base, format: 'excl-file' as const, label: 'Empty lock file (MachineLock, SoftFileLock, O_EXCL)' };
    return (
      heldBy(r, h) ??
      noHolder(
        r,
        e,
        c.scan,
        'No process has it open or locked: an O_EXCL holder exited without removing it (or a flock-style file kept after release). Removing it is safe.',
      )
    );
  }
  const soft = /^(\d+)\n([^\n]+)\n(?:(\d+)\n)?$/.exec(text);
  if (soft && isLockName) {
    const r = { ...base, format: 'softfilelock' as const, label: 'filelock SoftFileLock', host: soft[2], pid: soft[1] };
    r.details = [['Host', soft[2]!], ...(soft[3] ? [['Start token', soft[3]] as [string, string]] : [])];
    const held = heldBy(r, h);
    if (held) return held;
    const v = byPid(r, Number(soft[1]), soft[2], e, c);
    const now = v.status === 'live' && soft[3] && v.holder ? startToken(v.holder) : undefined;
    if (now === undefined || now === BigInt(soft[3]!)) return v;
    const other = `pid ${soft[1]} is another process (its start token differs)`;
    const blind = pidElsewhere(claimOf(Number(soft[1]), soft[2], e), c.scan);
    if (blind) return { ...r, status: 'unknown', why: `${cap(other)}, but ${blind}.` };
    return { ...r, status: 'stale', basis: 'absence', why: `Stale: ${other}.` };
  }
  const pidFile = /^(\d+)(?: (\S+))?\s*$/.exec(text);
  if (pidFile && /(^|\/)[^/]+\.pid$/.test(e.name)) {
    const r = { ...base, format: 'pidfile' as const, label: 'PID file', pid: pidFile[1], host: pidFile[2] };
    if (pidFile[2]) r.details = [['Host', pidFile[2]]];
    if (/(^|\/)gc\.pid$/.test(e.name) && Number(e.stat.mtimeMs) + GIT_GC_PID_MS < c.nowMs)
      return { ...r, status: 'stale', basis: 'rule', why: 'Stale: git ignores a gc.pid older than 12 hours.' };
    return byPid(r, Number(pidFile[1]), pidFile[2], e, c);
  }
  if (/^\d+\n$/.test(text) && isLockName) {
    const pid = Number(text);
    const r = { ...base, format: 'dotlock' as const, label: 'lockfile-progs / dotlockfile lock' };
    if (pid > 0) return byPid({ ...r, pid: String(pid) }, pid, undefined, e, c);
    const expiresMs = Number(e.stat.mtimeMs) + LOCKFILE_PROGS_MS;
    const ttl = { expiresMs, ttlMs: LOCKFILE_PROGS_MS };
    return expiresMs > c.nowMs
      ? { ...r, ...ttl, status: 'fresh', why: 'Valid by liblockfile’s rule: touched less than 5 minutes ago.' }
      : {
          ...r,
          ...ttl,
          status: 'stale',
          basis: 'rule',
          why: 'Stale by liblockfile’s rule: not touched for 5 minutes.',
        };
  }
  if (text === '0' && isLockName) {
    const r = { ...base, format: 'procmail' as const, label: 'procmail lockfile' };
    return {
      ...r,
      status: 'unknown',
      why: 'procmail’s lockfile records no owner and never expires by itself (unless its user passed -l).',
    };
  }
  return null;
}
