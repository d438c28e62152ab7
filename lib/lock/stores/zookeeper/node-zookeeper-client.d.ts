// The part of npm node-zookeeper-client 1.1.3 (which ships no types) that the ZooKeeper store uses.
declare module 'node-zookeeper-client' {
  import type { EventEmitter } from 'node:events';

  export interface Stat {
    czxid: Buffer;
    mzxid: Buffer;
    ctime: Buffer;
    mtime: Buffer;
    version: number;
    cversion: number;
    ephemeralOwner: Buffer;
    dataLength: number;
    numChildren: number;
  }
  export interface ZkEvent {
    type: number;
    name: string;
    path: string;
  }
  export interface ZkException extends Error {
    code: number;
    getCode(): number;
  }
  export type Watcher = (event: ZkEvent) => void;
  export interface Transaction {
    check(path: string, version: number): Transaction;
    remove(path: string, version: number): Transaction;
    create(path: string, data: Buffer | null, mode?: number): Transaction;
    commit(cb: (error: ZkException | null, results: { type: number; err?: number }[]) => void): void;
  }
  export interface Client extends EventEmitter {
    connect(): void;
    close(): void;
    getSessionId(): Buffer;
    getSessionTimeout(): number;
    addAuthInfo(scheme: string, auth: Buffer): void;
    create(
      path: string,
      data: Buffer | null,
      mode: number,
      cb: (error: ZkException | null, path: string) => void,
    ): void;
    remove(path: string, version: number, cb: (error: ZkException | null) => void): void;
    setData(path: string, data: Buffer, version: number, cb: (error: ZkException | null, stat: Stat) => void): void;
    getData(
      path: string,
      watcher: Watcher | undefined,
      cb: (error: ZkException | null, data: Buffer | undefined, stat: Stat) => void,
    ): void;
    exists(
      path: string,
      watcher: Watcher | undefined,
      cb: (error: ZkException | null, stat: Stat | null) => void,
    ): void;
    getChildren(
      path: string,
      watcher: Watcher | undefined,
      cb: (error: ZkException | null, children: string[], stat: Stat) => void,
    ): void;
    mkdirp(path: string, cb: (error: ZkException | null, path: string) => void): void;
    transaction(): Transaction;
  }
  export function createClient(
    connectionString: string,
    options?: { sessionTimeout?: number; spinDelay?: number; retries?: number },
  ): Client;
  export const CreateMode: {
    PERSISTENT: number;
    PERSISTENT_SEQUENTIAL: number;
    EPHEMERAL: number;
    EPHEMERAL_SEQUENTIAL: number;
  };
  export const Exception: {
    NO_NODE: number;
    BAD_VERSION: number;
    NODE_EXISTS: number;
    NOT_EMPTY: number;
    CONNECTION_LOSS: number;
    SESSION_EXPIRED: number;
    NO_AUTH: number;
  };
  export const Event: {
    NODE_CREATED: number;
    NODE_DELETED: number;
    NODE_DATA_CHANGED: number;
    NODE_CHILDREN_CHANGED: number;
  };
}
