// Whether the servers a source lists are the whole ensemble (docs/verdict.md "The reach of evidence"): a session absent
// from the `cons` of the members read may be connected to a member not read. Each member read tells its own id and the
// ensemble's membership in `conf` (`serverId=2`, then `server.N=host:port:port:participant` lines); `srvr` says `Mode:
// standalone` for a lone server, the whole ensemble by itself. `conf` also gives the session bounds: the longest
// timeout any session may have, and the tick the server rounds each session's expiry up to.
import { fourLetters } from './sessions';

/** What the members read say of the ensemble. */
export interface Reach {
  /** Every member of the ensemble was read (its `cons` answered): absence from all of them means something. */
  whole: boolean;
  /** The members not read (`server.2 (10.0.0.2)`), or why the ensemble could not be learned. */
  notRead: string[];
  why?: string;
  /** The servers' maxSessionTimeout and tickTime (`conf`), the bounds of a session never seen connected. */
  maxSessionTimeoutMs?: number;
  tickMs?: number;
}

/** One member's `conf` and `srvr`, parsed: its id, the ensemble's members (id → quorum host) and its bounds. */
export interface MemberConf {
  serverId?: string;
  members: Map<string, string>;
  standalone: boolean;
  maxSessionTimeoutMs?: number;
  tickMs?: number;
}

const refused = (text: string) => /not in the whitelist|not executed/i.test(text);

export function parseMemberConf(conf: string, srvr: string): MemberConf {
  const field = (k: string) => new RegExp(`^${k}=(\\d+)\\s*$`, 'm').exec(conf)?.[1];
  const members = new Map<string, string>();
  // server.N=host:quorum:election[:participant|:observer][;clientAddress:port], host maybe [IPv6]
  for (const m of conf.matchAll(/^server\.(\d+)=(\[[^\]]+\]|[^:;\s]+)/gm)) members.set(m[1]!, m[2]!);
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const max = num(field('maxSessionTimeout'));
  const tick = num(field('tickTime'));
  return {
    ...(field('serverId') !== undefined ? { serverId: field('serverId') } : {}),
    members,
    standalone: /^Mode: standalone\s*$/m.test(srvr),
    ...(max ? { maxSessionTimeoutMs: max } : {}),
    ...(tick ? { tickMs: tick } : {}),
  };
}

/**
 * The reach of the members that answered (`read`, by host:port) out of those the source lists (`hosts`): whole when
 * a lone standalone server is read, or when every `server.N` of the membership answered with its own serverId.
 */
export function reachOf(hosts: string[], read: Map<string, MemberConf>, problems: string[]): Reach {
  const confs = [...read.values()];
  const max = confs.find((c) => c.maxSessionTimeoutMs)?.maxSessionTimeoutMs;
  const tick = confs.find((c) => c.tickMs)?.tickMs;
  const bounds = { ...(max ? { maxSessionTimeoutMs: max } : {}), ...(tick ? { tickMs: tick } : {}) };
  const unread = hosts.filter((h) => !read.has(h));
  if (unread.length)
    return {
      whole: false,
      notRead: unread,
      why: problems.join('; ') || `${unread.join(', ')} did not answer`,
      ...bounds,
    };
  if (confs.length === 1 && confs[0]!.standalone) return { whole: true, notRead: [], ...bounds };
  const members = new Map(confs.flatMap((c) => [...c.members]));
  const ids = new Set(confs.map((c) => c.serverId));
  if (!members.size)
    return {
      whole: false,
      notRead: [],
      why: `the ensemble's members are unknown (${problems.join('; ') || 'conf lists no server.N and srvr no standalone mode'})`,
      ...bounds,
    };
  const notRead = [...members].filter(([id]) => !ids.has(id)).map(([id, host]) => `server.${id} (${host})`);
  return { whole: notRead.length === 0, notRead, ...bounds };
}

/** Asks every listed server for `conf` and `srvr` (one connection each per word) and weighs what they say. */
export async function readReach(hosts: string[]): Promise<Reach> {
  const read = new Map<string, MemberConf>();
  const problems: string[] = [];
  await Promise.all(
    hosts.map(async (h) => {
      try {
        const [conf, srvr] = await Promise.all([fourLetters(h, 'conf'), fourLetters(h, 'srvr')]);
        const member = parseMemberConf(refused(conf) ? '' : conf, refused(srvr) ? '' : srvr);
        if (refused(conf) && !member.standalone) problems.push(`${h} does not whitelist conf`);
        else read.set(h, member);
      } catch (err) {
        problems.push(`${h}: ${(err as Error).message}`);
      }
    }),
  );
  return reachOf(hosts, read, problems);
}
