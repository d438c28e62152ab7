// An HTTP proxy on a free loopback port in front of one server, for tests of a store whose request fails part-way
// through a release: every request is passed through, except those a rule matches, which get the error the rule gives
// (as the service itself would answer it) without reaching the server. Stopped by the test that started it.
import { createServer, request, type IncomingMessage, type Server } from 'node:http';

export interface FaultRule {
  /** Which requests fail: by method, URL and headers (lower-case names). */
  match: (req: IncomingMessage) => boolean;
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface HttpFaultProxy {
  /** `http://127.0.0.1:port`, to give clients instead of the server's URL. */
  url: string;
  /** From now on, requests `rule` matches fail with its answer (replacing any earlier rule). */
  fail(rule: FaultRule): void;
  /** Passes every request through again. */
  heal(): void;
  /** Requests failed by a rule so far. */
  failed(): number;
  stop(): Promise<void>;
}

export async function startHttpFaultProxy(target: string): Promise<HttpFaultProxy> {
  const to = new URL(target);
  let rule: FaultRule | undefined;
  let failed = 0;
  const server: Server = createServer((req, res) => {
    if (rule?.match(req)) {
      failed++;
      const answer = rule;
      req.resume();
      req.on('end', () => res.writeHead(answer.status, answer.headers).end(answer.body ?? ''));
      return;
    }
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    fail: (r) => void (rule = r),
    heal: () => void (rule = undefined),
    failed: () => failed,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
