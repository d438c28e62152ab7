// What Terraform's azurerm backend needs to reach Azurite (facts-azure.md §1.7): it always dials
// https://<account>.blob.core.windows.net, so a throwaway CA, a server certificate for *.blob.core.windows.net (and
// 127.0.0.1, for Lockboard's path-style connection string), and a loopback CONNECT proxy that pipes every tunnel to
// Azurite's port. HTTPS_PROXY and SSL_CERT_FILE point Terraform at them.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';

export function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const ssl = (...args: string[]) => {
    const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`openssl ${args[0]}: ${r.stderr} (install it: apt-get install -y openssl)`);
  };
  ssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '1',
    '-subj',
    '/CN=lockboard-test-ca',
  );
  ssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'srv.key',
    '-out',
    'srv.csr',
    '-subj',
    '/CN=blob.core.windows.net',
  );
  writeFileSync(
    join(dir, 'ext.cnf'),
    'subjectAltName=DNS:*.blob.core.windows.net,DNS:blob.core.windows.net,IP:127.0.0.1\n',
  );
  ssl(
    'x509',
    '-req',
    '-in',
    'srv.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'srv.pem',
    '-days',
    '1',
    '-extfile',
    'ext.cnf',
  );
  return { ca: join(dir, 'ca.pem'), cert: join(dir, 'srv.pem'), key: join(dir, 'srv.key') };
}

/** A CONNECT proxy on loopback that sends every tunnel, whatever host it names, to `port`. */
export async function tunnelTo(port: number): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => res.writeHead(405).end());
  const open = new Set<Duplex>();
  server.on('connect', (_req, socket, head) => {
    const upstream = connect(port, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
    for (const s of [socket, upstream]) {
      open.add(s);
      s.once('close', () => open.delete(s));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    // a tunnel is no HTTP connection of the server's: each is ended here, or close() would wait for it
    close: () =>
      new Promise((resolve) => {
        for (const s of open) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
