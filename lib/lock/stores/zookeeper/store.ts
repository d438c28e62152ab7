// Locks in ZooKeeper (issue #36): every Curator and kazoo recipe under the source path read as holders and waiters in
// sequence order; force-released by one multi(check, delete) of the exact holder node; audited under the source's
// .lockboard/audit node before and after. ZooKeeper has no clock to ask: times are the nodes' ctime/mtime (the
// server's clock when written) against this machine's clock.
import type { AuditRecord } from '../../audit/record';
import { assertVersion, notALockView, recordedRelease, type LockStore, type LockView } from '../../store';
import type { ChangeFeed, ChangeFeedHandlers, ReleaseRequest, StorePage, StoreReleaseResult } from '../../store';
import { readEvents, recordEvent } from './audit';
import type { ClaimLeasing } from '../../claim-lease';
import { ZooKeeperClaims } from './claim';
import { isUnreachable, type ZkConn } from './conn';
import { startZooKeeperFeed } from './feed';
import { isContenderNode, lockOfNode, partView } from './parts';
import { readLock, type ZkLock } from './read';
import { assertAccepted, deleteExactly, targetOf } from './release';
import { readReach } from './ensemble';
import { SessionMemory } from './session-memory';
import { readSessions, type Sessions } from './sessions';
import { nameOfPath, pathOfName } from './source';
import { zookeeperTerms } from './words';
import { identityOf, zookeeperView } from './view';
import { ZOOKEEPER_VERSION } from './version';
import { walkLocks } from './walk';

export interface ZooKeeperStoreOptions {
  conn: ZkConn;
  /** Locks held longer than this are `long-held`. */
  longHeldMs?: number;
  /** Ask the servers' `cons` for each session's client and timeout (default true). */
  sessions?: boolean;
  close?: () => Promise<void>;
}

export class ZooKeeperLockStore implements LockStore {
  readonly kind = 'zookeeper';
  readonly versionShape = ZOOKEEPER_VERSION;
  readonly source: string;
  private readonly root: string;

  constructor(private readonly o: ZooKeeperStoreOptions) {
    this.source = o.conn.source.display;
    this.root = o.conn.source.path;
  }

  get conn(): ZkConn {
    return this.o.conn;
  }

  now(): number {
    return Date.now();
  }

  async close(): Promise<void> {
    await this.o.close?.();
  }

  private claims: ZooKeeperClaims | undefined;

  /** A create-only persistent node beside the trail, or its lease (claim.ts): see LockStore. */
  claim(key: string, lease?: ClaimLeasing): Promise<boolean> {
    this.claims ??= new ZooKeeperClaims(this.o.conn, this.root);
    return lease ? lease(this.claims) : this.claims.claim(key);
  }

  changes(handlers: ChangeFeedHandlers): Promise<ChangeFeed | null> {
    return startZooKeeperFeed(this.o.conn, this.root, handlers);
  }

  /** Sessions seen across this store's passes: absence from `cons` counts from the first pass that missed one. */
  private readonly memory = new SessionMemory();

  /** One pass: every listed member's `cons`, and whether those members are the whole ensemble. */
  private async sessions(): Promise<Sessions | undefined> {
    if (this.o.sessions === false) return undefined;
    const hosts = this.o.conn.source.hosts;
    const [sessions, reach] = await Promise.all([readSessions(hosts), readReach(hosts.split(','))]);
    this.memory.pass(this.now(), reach.whole && !sessions.missing);
    this.memory.observe(sessions.bySid, this.now());
    return { ...sessions, reach, memory: this.memory };
  }

  private view(lock: ZkLock, sessions: Sessions | undefined): LockView {
    return zookeeperView(lock, { source: this.source, nowMs: this.now(), sessions, longHeldMs: this.o.longHeldMs });
  }

  async list(): Promise<StorePage> {
    const [walked, sessions] = await Promise.all([walkLocks(this.o.conn, this.root), this.sessions()]);
    const locks = walked.locks.filter((l) => l.holders.length).map((l) => this.view(l, sessions));
    return {
      locks: locks.sort((a, b) => a.name.localeCompare(b.name)),
      skipped: walked.skipped,
      serverTime: new Date(this.now()).toISOString(),
    };
  }

  /** The lock at `name` as the recipe groups it, or null when nothing holds it. */
  private async readAt(name: string): Promise<{ lock: ZkLock | null; exists: boolean; size: number }> {
    // a node that cannot be read is absent; a server that cannot be reached is an error, never a free lock
    const orNull = (err: unknown) => (isUnreachable(err) ? Promise.reject(err) : null);
    const [names, self, sibling] = await Promise.all([
      this.o.conn.children(name).catch(orNull),
      this.o.conn.exists(name).catch(orNull),
      this.o.conn.exists(`${name}-__lock__`).catch(orNull),
    ]);
    if (!names || !self) return { lock: null, exists: false, size: 0 };
    const lock = await readLock(this.o.conn, name, names, sibling !== null);
    const held = lock && lock.holders.length ? lock : null;
    const empty = names.length === 0 && self.dataLength === 0;
    return { lock: held, exists: !held && !empty && !lock, size: self.dataLength };
  }

  async inspect(lockName: string): Promise<LockView | null> {
    const path = pathOfName(lockName);
    const name = nameOfPath(path);
    const [read, sessions] = await Promise.all([this.readAt(path), this.sessions()]);
    if (read.lock) return this.view(read.lock, sessions);
    if (isContenderNode(path)) {
      const lock = await this.inspect(lockOfNode(path));
      const part =
        lock && partView(name, lock, { kind: this.kind, source: this.source, nowMs: this.now(), size: read.size });
      if (part) return part;
    }
    if (!read.exists) return null; // free: an empty lock parent, or nothing
    return notALockView({
      kind: this.kind,
      source: this.source,
      name,
      what: `A znode of ${read.size} bytes that no Curator or kazoo recipe made`,
      nowMs: this.now(),
      terms: zookeeperTerms({ notTold: null, reusedNames: false, ephemeral: false }),
      size: read.size,
    });
  }

  record(fields: Record<string, string>): Promise<string> {
    return recordEvent(this.o.conn, this.root, fields);
  }

  readAudit(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    return readEvents(this.o.conn, this.root, from, to, lock === undefined ? undefined : nameOfPath(lock));
  }

  async forceRelease(request: ReleaseRequest): Promise<StoreReleaseResult> {
    assertVersion(this, request.version);
    const r = { ...request, name: nameOfPath(pathOfName(request.name)) };
    const { lock } = await this.readAt(pathOfName(r.name));
    const before = lock ? this.view(lock, undefined) : await this.inspect(r.name);
    if (!before) return { outcome: 'gone', current: null, audit: [] };
    if (!before.releasable || !lock) return { outcome: 'not-a-lock', current: before, audit: [] };
    const target = targetOf(lock, r.version, r.identity, identityOf);
    if (typeof target === 'string') return { outcome: target, current: before, audit: [] };
    assertAccepted(before, r); // only where a node would be deleted: a stale version deletes nothing
    const fields = { version: r.version, operator: r.operator, reason: r.reason, format: before.format };
    const trail = { lock: r.name, trail: `${this.source} .lockboard/audit`, fields, record: this.record.bind(this) };
    const result = await recordedRelease(trail, async () => {
      const outcome = await deleteExactly(this.o.conn, target, lock.reusedNames);
      return { outcome, current: outcome === 'released' ? null : await this.inspect(r.name) };
    });
    return result.outcome === 'released' ? { ...result, released: before } : result;
  }
}
