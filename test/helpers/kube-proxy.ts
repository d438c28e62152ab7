// A TCP proxy in front of the kube-apiserver, for a console that loses its connection to the cluster: `cut()` drops
// every connection through it and refuses new ones (a partition), `restore()` lets them through again. TLS passes
// through untouched. Stopped by the test that started it.
import { connect, createServer, type Socket } from 'node:net';

export interface KubeProxy {
  /** `https://127.0.0.1:PORT`: the apiserver through the proxy. */
  server: string;
  cut(): void;
  restore(): void;
  stop(): Promise<void>;
}

export async function startKubeProxy(target: string): Promise<KubeProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  let cut = false;
  const proxy = createServer((inbound) => {
    if (cut) return void inbound.destroy();
    const outbound = connect(Number(port), hostname);
    for (const s of [inbound, outbound]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => undefined);
    }
    inbound.pipe(outbound).pipe(inbound);
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  await new Promise<void>((ready) => proxy.listen(0, '127.0.0.1', ready));
  const address = proxy.address();
  if (!address || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    server: `https://127.0.0.1:${address.port}`,
    cut() {
      cut = true;
      for (const s of open) s.destroy();
    },
    restore() {
      cut = false;
    },
    async stop() {
      for (const s of open) s.destroy();
      await new Promise<void>((done) => proxy.close(() => done()));
    },
  };
}
