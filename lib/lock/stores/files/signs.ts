// What a lock file says of its holder beyond its bytes (docs/verdict.md): the holder process's state letter and
// start time in /proc/<pid>/stat (read once per listing pass with the holder scan), a pid that is gone or reused, a
// holder on another host that cannot be seen from here. `gone` only where the reading rests on absence seen
// everywhere the holder could run (reading.ts, pid-check.ts); stale by a tool's own rule is expired, never gone.
import { absent, byRule, RULE_IS_NOT_ABSENCE } from '../../verdict/sign';
import type { HolderSign, Verdict } from '../../verdict/verdict';
import type { Entry } from './entry';
import type { ProcessInfo } from './process';
import type { Reading } from './reading';

const STATE_WORDS: Record<string, [Verdict, string]> = {
  R: ['alive', 'running (R)'],
  S: ['alive', 'sleeping (S), waiting for something'],
  I: ['alive', 'idle (I)'],
  T: ['stalled', 'stopped (T): it makes no progress until it gets SIGCONT'],
  t: ['stalled', 'stopped by a debugger (t)'],
  D: ['unknown', 'in uninterruptible I/O (D) at this look; a second look settles whether it is stuck there'],
};

const plain = (why: string) =>
  why
    .replace(/^Stale( by [^:]+)?: /, '')
    .replace(/^Pid /, 'pid ')
    .replace(/\.$/, '');

function processSign(p: ProcessInfo, at: string): HolderSign {
  const [points, state] = STATE_WORDS[p.stateCode ?? ''] ?? (['alive', `in state ${p.stateCode ?? '?'}`] as const);
  const started = p.startedMs ? `, started ${new Date(p.startedMs).toISOString()}` : '';
  return {
    points,
    says: `pid ${p.pid} (${p.comm ?? '?'}) is ${state}`,
    fact: `state ${p.stateCode ?? '?'}${started}`,
    from: `/proc/${p.pid}/stat`,
    at,
  };
}

function fromOf(r: Reading, e: Entry): string {
  if (r.pid) return `/proc/${r.pid}/stat`;
  return r.status === 'fresh' ? `${(r.member ?? e).path} (modified time)` : '/proc/locks and open files';
}

/** The signs of one lock file's holder, on this host's clock at `nowMs`. */
export function fileSigns(r: Reading, e: Entry, nowMs: number): HolderSign[] {
  const at = new Date(nowMs).toISOString();
  if (r.holder) return [processSign(r.holder, at)];
  const says = plain(r.why);
  const sign = (points: Verdict): HolderSign[] => [{ points, says, fact: r.why, from: fromOf(r, e), at }];
  if (r.status === 'stale' && r.basis === 'absence') return [absent(sign('gone')[0]!)];
  if (r.status === 'stale') return [byRule({ ...sign('unknown')[0]!, says: `${says}; ${RULE_IS_NOT_ABSENCE}` })];
  if (r.status === 'fresh' || r.status === 'live') return sign('alive');
  if (r.status === 'unknown') return sign('unknown');
  return [];
}
