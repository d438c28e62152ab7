// Whether the holder of Lockboard's own lock in a directory is gone before its TTL runs out (docs/verdict.md "The reach
// of evidence"). Each generation records what names its process beyond the pid: the pid namespace, the boot, the start
// time. A takeover on a pid check needs the namespace and boot to be the reader's (the pid then names the same process
// table) and the pid missing or started at another time; anything else (another container on a shared volume, another
// boot, a body without them, a hidepid /proc) leaves it to the TTL.
import { readMounts } from './mounts';
import type { Generation } from './gendir-body';
import { processInfo, selfProcess, type ProcessInfo } from './process';
import { readReach, type Reach } from './reach';

/** What a generation records of its writer's process beyond its pid. */
type HolderIdentity = Pick<Generation, 'pidNs' | 'bootId' | 'pidStart'>;

let mine: HolderIdentity | undefined;

/** This process's identity, read once (the namespace, boot and start of a process never change). */
export function ownIdentity(): HolderIdentity {
  if (mine) return mine;
  const reach = readReach({ byDev: new Map(), all: [] });
  const start = selfProcess().startTicks;
  mine = {
    ...(reach.pidNs !== undefined && reach.listsOwn ? { pidNs: reach.pidNs } : {}),
    ...(reach.bootId ? { bootId: reach.bootId } : {}),
    ...(start !== undefined ? { pidStart: String(start) } : {}),
  };
  return mine;
}

let recent: { at: number; reach: Reach } | undefined;

/** The reach for an acquirer's checks, read at most once a second (mountinfo can be long on a busy host). */
export function acquirerReach(nowMs = Date.now()): Reach {
  if (!recent || nowMs - recent.at > 1_000) recent = { at: nowMs, reach: readReach(readMounts()) };
  return recent.reach;
}

/** Why a pid check cannot tell anything here (the TTL decides), or undefined when it can. */
function cannotCheck(g: Generation, host: string, reach: Reach): string | undefined {
  if (g.host !== host) return `its holder runs on host ${g.host}, not seen from ${host}`;
  if (g.pidNs === undefined || !g.bootId || !g.pidStart)
    return 'it was written by a Lockboard that did not record its holder’s pid namespace and boot';
  if (g.bootId !== reach.bootId)
    return `it was written in another boot (${g.bootId}), or by another machine named ${g.host}`;
  if (g.pidNs !== reach.pidNs || !reach.listsOwn)
    return `its holder runs in another pid namespace (${g.pidNs}; this reader's is ${reach.pidNs ?? '?'}), e.g. another container on a shared volume: pid ${g.pid} names another process table`;
  if (reach.hidepid && !reach.seesHidden)
    return `/proc is mounted hidepid=${reach.hidepid}: a missing pid ${g.pid} may be another user's process`;
  return undefined;
}

/**
 * Whether the generation's holder is gone (proof: its pid missing, a zombie, or another start), and why; `checked`
 * false when its pid says nothing from here and only the TTL decides.
 */
export function ownHolder(
  g: Generation,
  host: string,
  reach: Reach,
  memo?: Map<number, ProcessInfo>,
): { gone: boolean; why: string; checked: boolean } {
  const blind = cannotCheck(g, host, reach);
  if (blind) return { gone: false, checked: false, why: `${blind}; its TTL decides` };
  const p = processInfo(g.pid, memo);
  const gone = (why: string) => ({ gone: true, checked: true, why: `its holder pid ${g.pid} ${why}` });
  if (p.state === 'gone') return gone('has exited (in this reader’s host, pid namespace and boot)');
  if (p.state === 'zombie') return gone('has exited (a zombie not yet reaped)');
  if (p.state === 'alive' && p.startTicks !== undefined && String(p.startTicks) !== g.pidStart)
    return gone(`has exited: that pid is now another process (${p.comm ?? '?'}), started at another time`);
  if (p.state === 'hidden') return { gone: false, checked: false, why: `pid ${g.pid} cannot be read as this user` };
  return { gone: false, checked: true, why: `its holder pid ${g.pid} runs` };
}
