// The one place the ZooKeeper store talks to ZooKeeper: node-zookeeper-client's callbacks as promises, a count of
// requests (for the bench), and the connect that fails fast with a message naming the server. Every client is guarded
// (guard.ts: a reply it cannot parse never throws out of its socket handler), and a request no server answers fails in
// ZooKeeper's words (unreachable.ts): a server that accepted it and went silent is dropped after `readTimeoutMs`.
//
// A store's connection (`renew`: the console's, `ls`) never queues a request while it has no connection (the client
// would hold it until a reconnect, so a listing would wait as long as the server is down): it fails at once, and the
// source shows as unreachable. Once it has been disconnected for longer than its session timeout, the session is surely
// gone (a server restarted with no data refuses it forever): the next request opens a new session, as Curator's
// connection handling does, and `renewed` is emitted (its watches are gone with the old one). A lock holder's
// connection keeps the library's behaviour: its requests wait for the reconnect, and its session is its lock.
import { EventEmitter } from 'node:events';
import type { Client, Stat, Watcher, ZkException } from 'node-zookeeper-client';
import { missingSdk } from '../types';
import { openClient, type ClientOptions, type OpenedClient, type ZkModule } from './client';
import type { ZooKeeperSource } from './source';
import { notConnected, zkUnreachable } from './unreachable';

export type { ZkModule } from './client';

export interface ZNode {
  path: string;
  data: Buffer;
  stat: Stat;
}

/** ZooKeeper's error codes the store reacts to (node-zookeeper-client's Exception). */
export const ZK = { NO_NODE: -101, BAD_VERSION: -103, NODE_EXISTS: -110, NOT_EMPTY: -111, NO_AUTH: -102 };

export const codeOf = (err: unknown): number | undefined => (err as Partial<ZkException> | null)?.code;

/** Whether a request failed for want of a server (unreachable.ts), not by a server's answer. */
export const isUnreachable = (err: unknown): boolean =>
  ['ECONNRESET', 'ETIMEDOUT'].includes((err as { code?: unknown } | null)?.code as string);

/** A 64-bit field of a Stat (an 8-byte big-endian Buffer) as a bigint. */
export const long = (b: Buffer): bigint => b.readBigInt64BE(0);

export interface ConnectOptions extends ClientOptions {
  /** A store's connection: fails at once while disconnected, and renews a session that is surely gone. */
  renew?: boolean;
  /** A request with no byte from the server for this long drops the connection (default 2/3 of the session timeout, at most 10 s). */
  readTimeoutMs?: number;
}

export class ZkConn extends EventEmitter {
  requests = 0;
  private downSince: number | undefined;
  /** The session is gone for sure (expired, or given up), or the connection closed for good. */
  private dead = false;
  private closed = false;
  private fault = '';
  private renewing: Promise<void> | undefined;

  constructor(
    private opened: OpenedClient,
    readonly zk: ZkModule,
    readonly source: ZooKeeperSource,
    private readonly o: ConnectOptions = {},
  ) {
    super();
    this.adopt(opened);
  }

  /** The current client (a store's connection replaces it when its session is surely gone). */
  get client(): Client {
    return this.opened.client;
  }

  /** Closes the connection for good. */
  close(): void {
    this.closed = true;
    this.opened.guard.abandon();
  }

  /** A reply the client could not parse (guard.ts): named by the requests that fail until it reconnects. */
  noteFault(err: Error): void {
    this.fault = err.message;
  }

  private adopt(opened: OpenedClient): void {
    this.opened = opened;
    this.downSince = undefined;
    this.dead = false;
    opened.client.on('connected', () => {
      if (this.opened !== opened || this.downSince === undefined) return;
      this.downSince = undefined;
      this.fault = '';
      this.emit('reconnected');
    });
    opened.client.on('disconnected', () => {
      if (this.opened !== opened) return;
      this.downSince ??= performance.now();
      this.emit('disconnected');
    });
    opened.client.on('expired', () => {
      if (this.opened !== opened) return;
      this.dead = true;
      this.emit('expired');
    });
  }

  /** The session timeout the server granted (it bounds what was asked to 2-20 ticks). */
  private get sessionTimeoutMs(): number {
    return this.opened.client.getSessionTimeout() || (this.o.sessionTimeoutMs ?? 30_000);
  }

  /** A store's request waits for no reconnect: connected now, a new session for one surely gone, or an error. */
  private async ready(): Promise<void> {
    if (!this.o.renew || this.opened.guard.connected()) return;
    if (this.closed) throw notConnected(this.source.display, 'the connection is closed');
    const gone =
      this.dead || (this.downSince !== undefined && performance.now() - this.downSince > this.sessionTimeoutMs);
    const why = this.fault
      ? `its reply could not be read (${this.fault}); reconnecting`
      : 'not connected (reconnecting)';
    if (!gone) throw notConnected(this.source.display, why);
    await (this.renewing ??= this.renew().finally(() => (this.renewing = undefined)));
  }

  /** The old session is given up (its client closed for good) and a new one opened. */
  private async renew(): Promise<void> {
    this.opened.guard.abandon();
    this.dead = true; // until a new client connects, every request tries again
    const opened = await openClient(this.zk, this.source, this.o, (err) => this.noteFault(err));
    this.adopt(opened);
    this.emit('renewed');
  }

  private async call<T>(run: (done: (err: ZkException | null, value: T) => void) => void): Promise<T> {
    this.requests++;
    await this.ready();
    return new Promise<T>((resolve, reject) => {
      const answered = this.deadline(reject);
      run((err, value) => {
        answered();
        if (err) reject(this.explain(err));
        else resolve(value);
      });
    });
  }

  /**
   * A request unanswered after `readTimeoutMs` fails, whatever became of it (the library loses the request whose reply
   * had an unexpected xid); if the server has been silent since it went, the connection is dropped too, as the Java
   * client does: the library fails its other pending requests and reconnects.
   */
  private deadline(reject: (err: Error) => void): () => void {
    const { guard } = this.opened;
    const ms = this.o.readTimeoutMs ?? Math.min(10_000, (this.sessionTimeoutMs * 2) / 3);
    const sentAt = performance.now();
    const timer = setTimeout(() => {
      if (guard.lastDataAt < sentAt) guard.drop();
      reject(notConnected(this.source.display, `no answer within ${ms / 1000} s`, 'ETIMEDOUT'));
    }, ms).unref();
    return () => clearTimeout(timer);
  }

  /** NO_AUTH names what to grant (README "Locks in ZooKeeper": ACLs), keeping the code for callers. */
  private explain(err: ZkException): unknown {
    if (codeOf(err) !== ZK.NO_AUTH) return zkUnreachable(err, this.source.display);
    const how = this.source.digest ? 'the digest identity given' : 'this client (no ZOOKEEPER_AUTH given)';
    return Object.assign(
      new Error(
        `${this.source.display} refused ${how} (NO_AUTH): grant it READ on the source path (and DELETE on lock parents, CREATE on .lockboard/audit to release), or pass digest credentials in ZOOKEEPER_AUTH`,
      ),
      { code: ZK.NO_AUTH },
    );
  }

  children(path: string, watcher?: Watcher): Promise<string[]> {
    return this.call((done) => this.client.getChildren(path, watcher, (e, c) => done(e, c)));
  }

  /** The node's data and Stat, or null when it does not exist. */
  async read(path: string, watcher?: Watcher): Promise<ZNode | null> {
    try {
      return await this.call<ZNode>((done) =>
        this.client.getData(path, watcher, (e, data, stat) => done(e, { path, data: data ?? Buffer.alloc(0), stat })),
      );
    } catch (err) {
      if (codeOf(err) === ZK.NO_NODE) return null;
      throw err;
    }
  }

  exists(path: string, watcher?: Watcher): Promise<Stat | null> {
    return this.call((done) => this.client.exists(path, watcher, (e, s) => done(e, s)));
  }

  create(path: string, data: Buffer, mode: number): Promise<string> {
    return this.call((done) => this.client.create(path, data, mode, done));
  }

  mkdirp(path: string): Promise<string> {
    return this.call((done) => this.client.mkdirp(path, done));
  }

  remove(path: string, version: number): Promise<void> {
    return this.call((done) => this.client.remove(path, version, (e) => done(e, undefined)));
  }

  /** One multi: check(path, version) and delete(path, version), atomically. */
  checkAndDelete(path: string, version: number): Promise<void> {
    return this.call((done) =>
      this.client
        .transaction()
        .check(path, version)
        .remove(path, version)
        .commit((e) => done(e, undefined)),
    );
  }
}

/** Connects (with digest auth when the source has it) or fails within `timeoutMs`, naming the server. */
export async function connectZooKeeper(source: ZooKeeperSource, o: ConnectOptions = {}): Promise<ZkConn> {
  let zk: ZkModule;
  try {
    zk = (await import('node-zookeeper-client')) as ZkModule;
    zk = (zk as unknown as { default?: ZkModule }).default ?? zk;
  } catch {
    throw missingSdk('zookeeper:// sources', 'node-zookeeper-client');
  }
  const made: { conn?: ZkConn } = {};
  const opened = await openClient(zk, source, o, (err) => made.conn?.noteFault(err));
  return (made.conn = new ZkConn(opened, zk, source, o));
}
