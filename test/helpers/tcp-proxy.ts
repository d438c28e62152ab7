// A TCP proxy on a free loopback port in front of one server, for tests of a client between two connections: it can
// drop every connection and refuse new ones for a while (the client sees its connection reset and retries), as a
// network partition or a load balancer restart does. Stopped by the test that started it.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** `127.0.0.1:port`, to give clients instead of the server's address. */
  address: string;
  /** Drops every open connection and refuses new ones for `ms` (resolves once accepting again). */
  cut(ms: number): Promise<void>;
  /** Connections made through the proxy so far. */
  connections(): number;
  stop(): Promise<void>;
}

export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const at = target.lastIndexOf(':');
  const [host, port] = [target.slice(0, at), Number(target.slice(at + 1))];
  const open = new Set<Socket>();
  let refusing = false;
  let made = 0;
  const server: Server = createServer((client) => {
    if (refusing) return client.resetAndDestroy();
    made++;
    const upstream = connect({ host, port });
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('error', () => undefined);
      s.on('close', () => (open.delete(s), client.destroy(), upstream.destroy()));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: local } = server.address() as { port: number };
  return {
    address: `127.0.0.1:${local}`,
    async cut(ms) {
      refusing = true;
      for (const s of open) s.resetAndDestroy();
      await new Promise((r) => setTimeout(r, ms));
      refusing = false;
    },
    connections: () => made,
    async stop() {
      for (const s of open) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
