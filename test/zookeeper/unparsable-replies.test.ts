// node-zookeeper-client throws from its socket handler on bytes it cannot parse (issue #62: "Unknown code: 32112657"
// stopped the console). Against a fake server on loopback: such replies fail the request as unreachable, a late
// connect response after the connect gave up is never read, and a store's request with no server fails at once.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectZooKeeper, type ZkConn } from '@/lib/lock/stores/zookeeper/conn';
import { parseZooKeeperSource } from '@/lib/lock/stores/zookeeper/source';

/** A ConnectResponse frame: protocol 0, the timeout, a session id, a 16-byte password. */
function connectResponse(timeoutMs = 10_000): Buffer {
  const b = Buffer.alloc(4 + 4 + 4 + 8 + 4 + 16);
  b.writeInt32BE(b.length - 4, 0);
  b.writeInt32BE(timeoutMs, 8);
  b.writeInt32BE(16, 20);
  return b;
}

/** A reply frame to xid 0 whose error field is no code ZooKeeper has. */
function unknownCodeReply(): Buffer {
  const b = Buffer.alloc(4 + 4 + 8 + 4);
  b.writeInt32BE(16, 0);
  b.writeInt32BE(32112657, 16);
  return b;
}

let server: Server | undefined;
let conn: ZkConn | undefined;
const uncaught: unknown[] = [];
const note = (err: unknown) => uncaught.push(err);
afterEach(async () => {
  conn?.close();
  process.removeListener('uncaughtException', note);
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = conn = undefined;
});

async function fakeServer(onConnect: (s: Socket) => void): Promise<string> {
  process.on('uncaughtException', note);
  uncaught.length = 0;
  server = createServer((s) => s.once('data', () => onConnect(s)));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `zookeeper://127.0.0.1:${(server.address() as { port: number }).port}/`;
}

describe('ZooKeeper replies the client cannot parse', () => {
  it('fails a request whose reply carries an unknown error code as unreachable, never the process', async () => {
    const url = await fakeServer((s) => {
      s.write(connectResponse());
      s.on('data', () => s.write(unknownCodeReply()));
    });
    conn = await connectZooKeeper(parseZooKeeperSource(url), { renew: true, readTimeoutMs: 500 });
    const err = await conn.children('/').catch((e: Error & { code?: string }) => e);
    expect(err).toMatchObject({ code: 'ETIMEDOUT', message: expect.stringMatching(/^Cannot reach zookeeper:\/\//) });
    expect(uncaught).toEqual([]);
  });

  it('never reads a connect response that comes after the connect gave up', async () => {
    const url = await fakeServer((s) => setTimeout(() => s.writable && s.write(connectResponse()), 400));
    const err = await connectZooKeeper(parseZooKeeperSource(url), { timeoutMs: 200 }).catch((e: Error) => e);
    expect(err).toMatchObject({ code: 'ECONNREFUSED' });
    await new Promise((r) => setTimeout(r, 600));
    expect(uncaught).toEqual([]);
  });

  it("fails a store's request at once while its server is down", async () => {
    const sockets = new Set<Socket>();
    const url = await fakeServer((s) => {
      sockets.add(s);
      s.write(connectResponse());
    });
    conn = await connectZooKeeper(parseZooKeeperSource(url), { renew: true });
    const closed = new Promise((r) => server!.close(r));
    for (const s of sockets) s.destroy();
    await closed;
    server = undefined;
    await new Promise((r) => setTimeout(r, 50));
    const started = performance.now();
    const err = await conn.children('/').catch((e: Error & { code?: string }) => e);
    expect(performance.now() - started).toBeLessThan(500);
    expect(err).toMatchObject({ code: 'ECONNRESET', message: expect.stringMatching(/not connected/) });
  });
});
