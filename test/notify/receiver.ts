// A local webhook receiver for the tests: HTTP, or HTTPS with a throwaway self-signed certificate (openssl), each
// request kept with its headers and body; answers scripted per request (a status, or hanging without answering).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttp, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  /** When it arrived (ms since the epoch). */
  at: number;
}

export type Answer = number | 'hang' | { status: number; headers: Record<string, string> };

export interface Receiver {
  url: string;
  received: Received[];
  /** Answers for the next requests, in order; afterwards 200. */
  script: Answer[];
  /** The certificate (PEM) an HTTPS receiver presents. */
  cert?: string;
  close(): Promise<void>;
}

export function selfSignedCert(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'lockboard-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startReceiver(o: { https?: boolean } = {}): Promise<Receiver> {
  const received: Received[] = [];
  const script: Answer[] = [];
  const hanging = new Set<ServerResponse>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answer = script.shift() ?? 200;
      if (answer === 'hang') return void hanging.add(res);
      const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
      res.writeHead(status, headers).end('ok');
    });
  };
  const tls = o.https ? selfSignedCert() : undefined;
  const server = tls ? createHttps({ key: tls.key, cert: tls.cert }, handler) : createHttp(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/hooks/T000/SECRET-TOKEN`,
    received,
    script,
    ...(tls ? { cert: tls.cert } : {}),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Resolves once `check` holds, or fails naming what was awaited. */
export async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
