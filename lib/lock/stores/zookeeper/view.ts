// How a ZooKeeper lock is shown: the holder node(s) with their sessions (client and timeout where `cons` answers),
// the waiters in sequence order, health from the node's existence (an ephemeral node lives exactly as long as its
// session) or a lease's wall-clock end.
import type { LockView, LockWaiter } from '../../store';
import type { LockHealth } from '../../types';
import { long } from './conn';
import type { Contender, ZkLock } from './read';
import { KAZOO_649, kazooReaderBeforeWriter, notToldWords } from './not-told';
import { FORMAT_LABELS } from './recipes';
import { sessionSign } from './session-signs';
import { sessionLabel, type Sessions } from './sessions';
import { nameOfPath } from './source';
import { zookeeperTerms } from './words';
import { versionOf } from './version';

/** What a node's data says of its owner: Lockboard's JSON identity, or the recipe's identifier as text. */
export function identityOf(c: Contender): string {
  const text = c.node.data.toString('utf8');
  if (text.startsWith('{"format":"lockboard/1"')) {
    try {
      // a holder may have written any JSON: only a string identity is one (anything else is no owner)
      const identity = (JSON.parse(text) as { identity?: unknown }).identity;
      return typeof identity === 'string' ? identity : '';
    } catch {
      /* not Lockboard's after all: shown as text */
    }
  }
  const printable = text.replace(/[^\x20-\x7e\u00a0-\uffff]/g, '').trim();
  // kazoo 2.8's Semaphore passes bytes to its Lock, which writes their repr: b'sem-3'
  return (/^b'(.*)'$/.exec(printable)?.[1] ?? printable).slice(0, 200) || '(no identifier)';
}

const nodeName = (c: Contender) => c.node.path.slice(c.node.path.lastIndexOf('/') + 1);

function sessionOf(c: Contender, sessions: Sessions | undefined): string {
  if (c.owner === 0n) return 'persistent node (no session)';
  const info = sessions?.bySid.get(c.owner.toString(16));
  const sid = `session ${sessionLabel(c.owner)}`;
  if (info) return `${sid}, client ${info.client}, timeout ${info.timeoutMs / 1000} s`;
  if (sessions?.missing) return `${sid} (client unknown: ${sessions.missing})`;
  return `${sid} (in no cons read: between connections, or on a member not read)`;
}

function waiterOf(c: Contender): LockWaiter {
  return {
    identity: identityOf(c),
    key: nameOfPath(c.node.path),
    since: new Date(Number(long(c.node.stat.ctime))).toISOString(),
    version: versionOf(long(c.node.stat.czxid), c.node.stat.version),
  };
}

export function zookeeperView(
  lock: ZkLock,
  o: { source: string; nowMs: number; sessions?: Sessions; longHeldMs?: number },
): LockView {
  const first = lock.holders[0]!;
  const ctime = Number(long(first.node.stat.ctime));
  const mtime = Number(long(first.node.stat.mtime));
  const czxid = long(first.node.stat.czxid);
  const notTold = notToldWords(lock.format);
  const notes = [
    ...(o.sessions?.missing ? [`Client addresses unknown: ${o.sessions.missing}.`] : []),
    ...(kazooReaderBeforeWriter(lock) ? [KAZOO_649] : []),
  ];
  const health: LockHealth = lock.lease
    ? o.nowMs >= lock.lease.endMs
      ? 'expired'
      : 'healthy'
    : o.longHeldMs !== undefined && o.nowMs - ctime > o.longHeldMs
      ? 'long-held'
      : 'healthy';
  const holders = lock.holders.map(
    (h, i) =>
      [
        lock.holders.length > 1 ? `Holder ${i + 1}` : 'Holder node',
        `${nodeName(h)} — ${lock.lease?.holder ?? identityOf(h)} — ${sessionOf(h, o.sessions)} — version ${versionOf(long(h.node.stat.czxid), h.node.stat.version)}`,
      ] as [string, string],
  );
  return {
    store: 'zookeeper',
    source: o.source,
    bucket: o.source,
    name: nameOfPath(lock.path),
    format: lock.format,
    formatLabel: FORMAT_LABELS[lock.format],
    identity: lock.lease?.holder ?? lock.holders.map(identityOf).join(', '),
    generation: first.seq ? String(Number(first.seq)) : czxid.toString(),
    metageneration: String(first.node.stat.version),
    createdAt: new Date(ctime).toISOString(),
    updatedAt: new Date(mtime).toISOString(),
    heldMs: Math.max(0, o.nowMs - ctime),
    ...(lock.lease ? { expiresAt: new Date(lock.lease.endMs).toISOString(), afterExpiry: 'expired' as const } : {}),
    health,
    metadata: {},
    details: [
      ...holders,
      ...(lock.maxLeases ? [['Max leases', lock.maxLeases] as [string, string]] : []),
      ...(lock.lease
        ? [['Lease ends', `${new Date(lock.lease.endMs).toISOString()} (the holder’s wall clock)`] as [string, string]]
        : []),
      ['Waiters', lock.waiters.length ? `${lock.waiters.length}, in sequence order` : 'none'],
    ],
    releasable: true,
    releaseRule: 'delete',
    releaseNote: `${
      lock.holders.length > 1
        ? 'Deletes one holder’s node: the version you give names which (the first holder’s by default). Waiters are never deleted.'
        : 'Deletes exactly the holder’s node; waiters are never deleted.'
    }${notTold ? ' Only with the confirmation that the old holder is not told (--accept-two-leaders).' : ''}`,
    ...(notes.length ? { note: notes.join(' ') } : {}),
    size: first.node.data.length,
    version: versionOf(czxid, first.node.stat.version),
    versionLabel: `node ${nodeName(first)} (czxid ${czxid}, data version ${first.node.stat.version})`,
    terms: zookeeperTerms({ notTold, reusedNames: lock.reusedNames, ephemeral: first.owner !== 0n }),
    waiters: lock.waiters.map(waiterOf),
    signs: [sessionSign(lock, o.sessions, o.nowMs)],
  };
}
