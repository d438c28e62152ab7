// A named lock as a LockView: its holder connection (user, host, Command, Time, State, statement masked for viewers),
// its waiters in order (each shown under its own name, never releasable), the tool its name says, and a version that
// pins the holder's connection id, the server's start and the name (a new holder or a restarted server is "changed").
import { notALockView, type LockView, type LockWaiter } from '../../store';
import type { LockHealth } from '../../types';
import { maskStatement } from './mask';
import type { Connection, NamedLock, NamedReading } from './named-locks';
import { namedSign } from './signs';
import { namedTool } from './tools';
import { namedVersion } from './version';
import { MYSQL8_WINDOW, namedTerms } from './words';

/** A session asleep inside a transaction for this long holds its lock while doing nothing ("overdue"). */
const IDLE_IN_TRANSACTION_S = 60;

export const namedName = (lock: string): string => `named:${lock}`;
const waiterName = (lock: string, id: string): string => `named:${lock}/waiter/${id}`;

export interface NamedContext {
  source: string;
  database: string;
  startS: number;
  longHeldMs?: number;
  /** A holder idle this long inside an open transaction is stalled (signs.ts IDLE_STALLED_MS by default). */
  idleStalledMs?: number;
  firstSeen: Map<string, number>;
}

const who = (c: Connection) => `connection ${c.id} (${c.user}@${c.host})`;

function waiterOf(l: NamedLock, w: Connection, r: NamedReading, c: NamedContext): LockWaiter {
  return {
    identity: who(w),
    key: waiterName(l.name, w.id),
    since: new Date(r.clock.nowMs - w.timeMs).toISOString(),
    version: namedVersion(l.name, w.id, c.startS),
  };
}

function healthOf(l: NamedLock, heldMs: number, c: NamedContext): LockHealth {
  if (c.longHeldMs !== undefined && heldMs > c.longHeldMs) return 'long-held';
  const h = l.holder;
  return h.command === 'Sleep' && h.inTransaction && h.time >= IDLE_IN_TRANSACTION_S ? 'overdue' : 'healthy';
}

function holderDetails(l: NamedLock, r: NamedReading): [string, string][] {
  const h = l.holder;
  const idle = h.command === 'Sleep' && h.inTransaction ? ' (inside an open transaction)' : '';
  return [
    ['Holder connection', h.id],
    ['User', h.user],
    ['Host', h.host],
    ['Program', h.program ?? '— (its connect attributes need performance_schema)'],
    ['Database', h.db ?? '—'],
    ['Command', `${h.command}${idle}`],
    ['Time', `${h.time} s`],
    ['State', h.state || '—'],
    ['Current statement', h.info === null ? '—' : maskStatement(h.info)],
    [
      'Waiting',
      l.waiters.length ? l.waiters.map((w) => `${who(w)} for ${(w.timeMs / 1000).toFixed(1)} s`).join(', ') : 'none',
    ],
    ['Read from', r.via],
    ...(r.missing ? [['Not visible here', r.missing] as [string, string]] : []),
  ];
}

export function namedView(l: NamedLock, r: NamedReading, c: NamedContext): LockView {
  const version = namedVersion(l.name, l.holder.id, c.startS);
  const seen = l.heldMs !== undefined ? r.clock.nowMs - l.heldMs : (c.firstSeen.get(version) ?? r.clock.nowMs);
  c.firstSeen.set(version, seen);
  const heldMs = Math.max(0, r.clock.nowMs - seen);
  const tool = namedTool(l.name, c.database);
  const window = r.clock.mariadb ? undefined : MYSQL8_WINDOW;
  return {
    store: 'mysql',
    source: c.source,
    bucket: c.source,
    name: namedName(l.name),
    format: 'mysql-named-lock',
    formatLabel: tool ? `Named lock (${tool.tool})` : 'Named lock',
    identity: `${l.holder.user}@${l.holder.host}`,
    pid: l.holder.id,
    generation: '0',
    metageneration: '0',
    createdAt: new Date(seen).toISOString(),
    updatedAt: new Date(seen).toISOString(),
    heldMs,
    health: healthOf(l, heldMs, c),
    metadata: {},
    details: [['Lock name', l.name], ...(tool ? toolDetails(tool) : []), ...holderDetails(l, r)],
    releasable: true,
    releaseRule: 'delete',
    releaseNote:
      `Ends connection ${l.holder.id} (KILL CONNECTION) only while it still holds ${l.name} on this server run: its ` +
      'open transaction rolls back and every named lock it holds is freed; the next waiter gets the lock. ' +
      (window ?? 'One statement: a waiter or a new holder is never ended.'),
    size: 0,
    version,
    versionLabel: `connection ${l.holder.id} · server started ${new Date(c.startS * 1000).toISOString()}`,
    terms: namedTerms({ mariadb: r.clock.mariadb, ...(window ? { window } : {}) }),
    waiters: l.waiters.map((w) => waiterOf(l, w, r, c)),
    signs: [namedSign(l.holder, r.clock.nowMs, c.idleStalledMs)],
    ...(l.holder.info !== null ? { sensitive: [['Current statement', l.holder.info]] as [string, string][] } : {}),
  };
}

const toolDetails = (t: { tool: string; about?: string }): [string, string][] => [
  ['Tool', t.about ? `${t.tool} (${t.about})` : t.tool],
];

/** A waiter named directly: its place in line, never releasable. */
export function waiterView(l: NamedLock, id: string, r: NamedReading, c: NamedContext): LockView | null {
  const at = l.waiters.findIndex((w) => w.id === id);
  if (at < 0) return null;
  const base = notALockView({
    kind: 'mysql',
    source: c.source,
    name: waiterName(l.name, id),
    what: 'A waiter',
    nowMs: r.clock.nowMs,
    terms: namedTerms({ mariadb: r.clock.mariadb }),
  });
  return {
    ...base,
    identity: who(l.waiters[at]!),
    version: namedVersion(l.name, id, c.startS),
    queuedFor: namedName(l.name),
    details: [
      ['Queued for', l.name],
      ['Place in line', `${at + 1} of ${l.waiters.length} (after connection ${l.holder.id})`],
    ],
    note: `A waiter queued for ${namedName(l.name)} (number ${at + 1} in line): Lockboard never ends a waiter's connection (it holds nothing yet, and its client would lose its work). Release the holder of ${namedName(l.name)} instead.`,
  };
}
