// Opening one node-zookeeper-client client: guarded (guard.ts) before it connects, with digest auth when the source
// has it, connected within `timeoutMs` or closed for good (a late connect response is never read) with an error
// naming the server.
import type { Client } from 'node-zookeeper-client';
import { guardClient, type Guard } from './guard';
import type { ZooKeeperSource } from './source';

export type ZkModule = typeof import('node-zookeeper-client');

export interface OpenedClient {
  client: Client;
  guard: Guard;
}

export interface ClientOptions {
  sessionTimeoutMs?: number;
  timeoutMs?: number;
}

/** A connected, guarded client; `onFault` hears each reply the client could not parse, then and later. */
export async function openClient(
  zk: ZkModule,
  source: ZooKeeperSource,
  o: ClientOptions,
  onFault: (err: Error) => void,
): Promise<OpenedClient> {
  const client = zk.createClient(source.hosts, { sessionTimeout: o.sessionTimeoutMs ?? 30_000, retries: 0 });
  let fault = '';
  const guard = guardClient(client, (err) => ((fault = err.message), onFault(err)));
  if (source.digest) client.addAuthInfo('digest', Buffer.from(source.digest));
  const connected = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      const why = fault ? `a server answered what the client cannot read (${fault})` : 'no ZooKeeper server answered';
      reject(new Error(`Cannot reach ${source.display}: ${why}`));
    }, o.timeoutMs ?? 5_000);
    client.once('connected', () => (clearTimeout(timer), resolve()));
    client.once('authenticationFailed', () => {
      clearTimeout(timer);
      reject(
        new Error(`${source.display} refused the digest credentials (check ZOOKEEPER_AUTH or the URL's user:password)`),
      );
    });
  });
  client.connect();
  try {
    await connected;
  } catch (err) {
    guard.abandon();
    throw Object.assign(err as Error, { code: 'ECONNREFUSED' });
  }
  return { client, guard };
}
