// Lock files that are not plain files, or whose holder is found another way (facts-files §1–5): Mercurial's symlink,
// proper-lockfile's directory, Lockboard's own generation directory, git's `*.lock` (held while a git process works in
// the repository), Terraform's local state lock (held only while the kernel shows the POSIX lock on the state file).
import fs from 'node:fs';
import path from 'node:path';
import { readEntry, type Entry } from './entry';
import { readLockFile } from './formats';
import { GEN_SUFFIX, LOCKD_SUFFIX, parseGeneration } from './gendir-body';
import { ownHolder } from './own-holder';
import { judgePid } from './pid-check';
import { devKey } from './proc';
import { processInfo } from './process';
import { heldBy, holdersOf, live, noHolder, type Context, type Reading } from './reading';
import { jsonObject } from '../../support/untrusted';

const PROPER_LOCKFILE_STALE_MS = 10_000;

/** This process's pid namespace as Mercurial writes it after the host (`%x` of the inode of /proc/self/ns/pid). */
function pidNamespace(): string | undefined {
  try {
    return fs.statSync('/proc/self/ns/pid').ino.toString(16);
  } catch {
    return undefined;
  }
}

/** `<host>[/<pid-ns>]:<pid>`: Mercurial breaks it only when host and namespace are its own and the pid is gone. */
function mercurial(e: Entry, c: Context): Reading | null {
  const m = /^(.+?)(?:\/([0-9a-f]+))?:(\d+)$/.exec(e.body.toString());
  if (!m) return null;
  const where = m[2] ? `${m[1]}/${m[2]}` : m[1]!;
  const r = { format: 'mercurial' as const, label: 'Mercurial lock', host: where, pid: m[3], details: [] };
  if (m[1] !== c.host)
    return {
      ...r,
      status: 'unknown',
      why: `Held on host ${m[1]}: its process cannot be seen from ${c.host}; a look on ${m[1]} settles it.`,
    };
  const ns = pidNamespace();
  if (m[2] && ns && m[2] !== ns)
    return {
      ...r,
      status: 'unknown',
      why: `Held in another pid namespace (${m[2]}, e.g. a container; this one is ${ns}): pid ${m[3]} cannot be checked from here; a look from that namespace (or the host's initial one) settles it.`,
    };
  const file = { mtimeMs: Number(e.stat.mtimeMs), dev: e.stat.dev, path: e.path };
  const v = judgePid({ pid: Number(m[3]), file, hostKnown: true, ...(m[2] ? { ns: parseInt(m[2], 16) } : {}) }, c.scan);
  if (v.status === 'live') return { ...r, status: 'live', holder: v.info, why: `${cap(v.why)}.` };
  if (v.status === 'unknown') return { ...r, status: 'unknown', why: `${cap(v.why)}.` };
  return { ...r, status: 'stale', basis: 'absence', why: `Stale: ${v.why}; the next hg breaks it by the same rule.` };
}

const cap = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

function lockDirectory(e: Entry, c: Context): Reading | null {
  const names = e.body.length ? e.body.toString().split('\n') : [];
  if (e.name.endsWith(LOCKD_SUFFIX)) return ownLock(e, names, c);
  if (!e.name.endsWith('.lock') || names.length) return null;
  const expiresMs = Number(e.stat.mtimeMs) + PROPER_LOCKFILE_STALE_MS;
  const r = { format: 'proper-lockfile' as const, label: 'proper-lockfile directory', details: [] };
  const ttl = { expiresMs, ttlMs: PROPER_LOCKFILE_STALE_MS };
  const unknownStale = ' (its holder’s `stale` option is not recorded; 10 s is the default)';
  return expiresMs > c.nowMs
    ? { ...r, ...ttl, status: 'fresh', why: `Refreshed within 10 s${unknownStale}.` }
    : { ...r, ...ttl, status: 'stale', basis: 'rule', why: `Stale: not refreshed for 10 s${unknownStale}.` };
}

function ownLock(e: Entry, names: string[], c: Context): Reading | null {
  const gens = names.filter((n) => n.endsWith(GEN_SUFFIX));
  const r = { format: 'lockboard-dir' as const, label: 'Lockboard lock directory', details: [] };
  if (!gens.length)
    return { ...r, status: 'stale', basis: 'absence', why: 'An empty lock directory: no generation, so no holder.' };
  const member = readEntry(path.dirname(e.path), `${path.basename(e.path)}/${gens[0]}`);
  const gen = member && parseGeneration(member.body);
  if (!member || !gen) return null;
  const expiresMs = Number(member.stat.mtimeMs) + gen.ttlMs;
  const g = {
    ...r,
    member,
    host: gen.host,
    pid: String(gen.pid),
    generation: gen.token,
    expiresMs,
    ttlMs: gen.ttlMs,
    details: [
      ['Recorded identity', gen.owner] as [string, string],
      ...(gen.purpose ? [['Purpose', gen.purpose]] : []),
    ] as [string, string][],
  };
  const holder = ownHolder(gen, c.host, c.scan.reach, c.scan.processes);
  if (holder.gone) return { ...g, status: 'stale', basis: 'absence', why: `Stale: ${holder.why}.` };
  if (expiresMs <= c.nowMs)
    return { ...g, status: 'stale', basis: 'rule', why: 'Stale: not refreshed within its TTL.' };
  return { ...g, status: 'fresh', why: `Refreshed within its TTL${holder.checked ? '' : `; ${holder.why}`}.` };
}

/** `.git/**.lock`: git keeps no fd open while hooks run; a git process working in the repository is the holder. */
function gitLock(e: Entry, c: Context): Reading {
  const repo = e.path.slice(0, e.path.lastIndexOf(`${path.sep}.git${path.sep}`));
  const body = e.body;
  const what =
    body.subarray(0, 4).toString() === 'DIRC'
      ? body.length >= 12
        ? `a new index (${body.readUInt32BE(8)} entries)`
        : `a new index being written (${body.length} bytes so far)`
      : /^[0-9a-f]{40,64}\n$/.test(body.toString())
        ? `new value ${body.toString().trim()}`
        : `${body.length} bytes`;
  const r = {
    format: 'git' as const,
    label: 'git lock file',
    details: [
      ['Repository', repo],
      ['Locks', path.basename(e.path).replace(/\.lock$/, '')],
      ['Pending', what],
    ] as [string, string][],
  };
  const held = heldBy(r, holdersOf(e, c.scan));
  if (held) return held;
  for (const [pid, cwd] of c.scan.cwds) {
    if (cwd !== repo && !cwd.startsWith(repo + path.sep)) continue;
    const p = processInfo(pid, c.scan.processes);
    if (p.state === 'alive' && p.comm?.startsWith('git')) return live(r, p, ` working in ${repo}`);
  }
  return noHolder(r, e, c.scan, `Stale: no git process is running in ${repo} (git’s own advice: remove the file).`);
}

/** `.terraform.tfstate.lock.info` beside `terraform.tfstate`: a lock only while the state file is fcntl-locked. */
function terraformLocal(e: Entry, c: Context): Reading | null {
  const info = jsonObject(e.body.toString());
  if (!info || typeof info.ID !== 'string' || typeof info.Operation !== 'string') return null;
  const text = (k: string) => (typeof info[k] === 'string' ? info[k] : '');
  const base = path
    .basename(e.path)
    .replace(/^\./, '')
    .replace(/\.lock\.info$/, '');
  const state = path.join(path.dirname(e.path), base);
  const details: [string, string][] = [
    ['ID', info.ID],
    ['Operation', info.Operation],
    ['Who', text('Who')],
    ['Created', text('Created')],
    ['State', state],
  ];
  const r = { format: 'terraform-local' as const, label: 'Terraform local state lock', details };
  let st: fs.BigIntStats;
  try {
    st = fs.statSync(state, { bigint: true });
  } catch {
    return { ...r, status: 'free', why: 'Not a lock: a leftover info file (the state file is gone).' };
  }
  const posix = (c.scan.locks.get(devKey(st.dev, st.ino)) ?? []).find((k) => k.kind === 'POSIX');
  if (!posix) return { ...r, status: 'free', why: 'Not locked: a leftover info file (no lock on the state file).' };
  const p = processInfo(posix.pid, c.scan.processes);
  if (p.state === 'alive') return live(r, p, ' (a POSIX lock on the state file)');
  return { ...r, status: 'live', why: `Held by a POSIX lock on ${state} (pid ${posix.pid}).` };
}

export function readEntryAsLock(e: Entry, c: Context): Reading | null {
  if (e.kind === 'symlink') return mercurial(e, c);
  if (e.kind === 'dir') return lockDirectory(e, c);
  if (e.kind !== 'file') return null;
  if (e.read && /(^|\/)\.[^/]+\.lock\.info$/.test(e.name)) return terraformLocal(e, c);
  if (e.read && /\/\.git\/(.+\/)?[^/]+\.lock$/.test(e.path)) return gitLock(e, c);
  return readLockFile(e, c);
}
