// The one place the ZooKeeper store talks to ZooKeeper: node-zookeeper-client's callbacks as promises, a count of
// requests (for the bench), and the connect that fails fast with a message naming the server. The client is kept by
// kept-client.ts (guarded; a store's fails at once while disconnected and renews a session surely gone), and a request
// no server answers fails in ZooKeeper's words (unreachable.ts).
import type { Stat, Watcher, ZkException } from 'node-zookeeper-client';
import { missingSdk } from '../types';
import { openClient, type ZkModule } from './client';
import { KeptClient, type ConnectOptions } from './kept-client';
import type { ZooKeeperSource } from './source';
import { zkUnreachable } from './unreachable';

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

export class ZkConn extends KeptClient {
  requests = 0;

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
