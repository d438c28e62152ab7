// A ZooKeeper client kept for its connection's life (conn.ts makes its requests): guarded (guard.ts: a reply it cannot
// parse never throws out of its socket handler), with a deadline for a request no server answers.
//
// A store's connection (`renew`: the console's, `ls`) never queues a request while it has no connection (the client
// would hold it until a reconnect, so a listing would wait as long as the server is down): it fails at once, and the
// source shows as unreachable. Once it has been disconnected for longer than its session timeout, the session is surely
// gone (a server restarted with no data refuses it forever): the next request opens a new session, as Curator's
// connection handling does, and `renewed` is emitted (its watches are gone with the old one). A lock holder's
// connection keeps the library's behaviour: its requests wait for the reconnect, and its session is its lock.
import { EventEmitter } from 'node:events';
import type { Client } from 'node-zookeeper-client';
import { openClient, type ClientOptions, type OpenedClient, type ZkModule } from './client';
import type { ZooKeeperSource } from './source';
import { notConnected } from './unreachable';

export interface ConnectOptions extends ClientOptions {
  /** A store's connection: fails at once while disconnected, and renews a session that is surely gone. */
  renew?: boolean;
  /** A request with no byte from the server for this long drops the connection (default 2/3 of the session timeout, at most 10 s). */
  readTimeoutMs?: number;
}

export class KeptClient extends EventEmitter {
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
    protected readonly o: ConnectOptions = {},
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
  protected async ready(): Promise<void> {
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

  /**
   * A request unanswered after `readTimeoutMs` fails, whatever became of it (the library loses the request whose reply
   * had an unexpected xid); if the server has been silent since it went, the connection is dropped too, as the Java
   * client does: the library fails its other pending requests and reconnects.
   */
  protected deadline(reject: (err: Error) => void): () => void {
    const { guard } = this.opened;
    const ms = this.o.readTimeoutMs ?? Math.min(10_000, (this.sessionTimeoutMs * 2) / 3);
    const sentAt = performance.now();
    const timer = setTimeout(() => {
      if (guard.lastDataAt < sentAt) guard.drop();
      reject(notConnected(this.source.display, `no answer within ${ms / 1000} s`, 'ETIMEDOUT'));
    }, ms).unref();
    return () => clearTimeout(timer);
  }
}
