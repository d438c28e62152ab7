// The emulator's HTTP server: control endpoints, fault injection, request log, then the GCS routes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { GcsError, rateLimited } from './errors';
import { Faults, WriteRateLimiter, type FaultConfig } from './faults';
import { parseJson, readBody } from './http';
import type { Notifications } from './notifications';
import type { ObjectStore } from './objects';
import { RequestLog } from './request-log';
import { route, type Reply, type RouteContext } from './routes';
import { xmlError, xmlRead, xmlTarget } from './xml-reads';

const UPLOAD_LIMIT = 64 * 1024 * 1024;
const FAULT_ERRORS: Record<number, [string, string]> = {
  409: ['conflict', 'A concurrent request changed the object (injected fault)'],
  429: ['rateLimitExceeded', 'The rate of requests is too high (injected fault)'],
  500: ['internalError', 'Internal Error (injected fault)'],
  503: ['backendError', 'Service Unavailable (injected fault)'],
};

export interface ServerParts {
  store: ObjectStore;
  notifications: Notifications;
  faults: Faults;
  requests: RequestLog;
  clock: () => number;
}

export function createEmulatorServer(parts: ServerParts): Server {
  const limiter = new WriteRateLimiter();
  const uploads: RouteContext['uploads'] = new Map();
  const now = (): number => parts.clock() + parts.faults.clockOffsetMs;

  const server = createServer({ maxHeaderSize: 16 * 1024 }, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      console.error('[emulator] unexpected error:', err);
      if (!res.headersSent) send(res, errorReply(new GcsError(500, 'internalError', 'Internal Error')), now());
    });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return;
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const body = JSON.stringify(
      new GcsError(
        status,
        tooLarge ? 'headersTooLarge' : 'badRequest',
        tooLarge ? 'Request headers too large' : 'Bad Request',
      ).toJSON(),
    );
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Date: ${new Date(now()).toUTCString()}\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const startedAt = Date.now();
    const url = new URL(req.url ?? '/', 'http://emulator');
    const method = req.method ?? 'GET';
    const path = url.pathname.replace(/\/{2,}/g, '/');
    if (path.startsWith('/_emulator/')) return control(method, path, req, res);
    const end = parts.requests.begin(method, path);
    try {
      await serve(req, res, url, method, path, started, startedAt);
    } finally {
      end();
    }
  }

  async function serve(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    method: string,
    path: string,
    started: number,
    startedAt: number,
  ): Promise<void> {
    const log = (status: number, fault?: string): void =>
      parts.requests.add({
        method,
        path,
        query: Object.fromEntries(url.searchParams),
        status,
        fault,
        startedAt,
        durationMs: performance.now() - started,
      });

    const xml = xmlTarget(method, path, req.headers.host);
    const decision = parts.faults.decide(method, path, url.search.slice(1));
    if (decision.latencyMs > 0) await sleepUnlessClosed(decision.latencyMs, res);
    if (res.destroyed) return log(0, 'closed');
    if (decision.reset) {
      req.socket.destroy();
      return log(0, 'reset');
    }
    if (decision.errorStatus) {
      const [reason, message] = FAULT_ERRORS[decision.errorStatus]!;
      const err = new GcsError(decision.errorStatus, reason, message);
      send(res, xml ? xmlError(err) : errorReply(err), now());
      return log(decision.errorStatus, 'error');
    }

    let reply: Reply;
    let fault: string | undefined;
    try {
      const body = await readBody(req, UPLOAD_LIMIT);
      const ctx: RouteContext = {
        store: parts.store,
        now: now(),
        baseUrl: `http://${req.headers.host ?? 'localhost'}`,
        query: url.searchParams,
        body,
        req,
        uploads,
        notifications: parts.notifications,
        checkWriteRate(bucket, name) {
          const rl = parts.faults.rateLimit;
          if (rl.enabled && !limiter.take(`${bucket}/${name}`, parts.clock(), rl.perSecond, rl.burst)) {
            fault = 'rate-limit';
            throw rateLimited(name);
          }
        },
      };
      reply = xml ? xmlRead(xml, req, url.searchParams, parts.store) : route(method, path, ctx);
    } catch (err) {
      if (!(err instanceof GcsError)) throw err;
      reply = errorReply(err);
    }
    if (decision.drop) {
      req.socket.destroy();
      return log(0, 'drop');
    }
    send(res, reply, now());
    log(reply.status, fault);
  }

  async function control(method: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (path === '/_emulator/faults') {
        if (method === 'POST')
          parts.faults.set(parseJson(await readBody(req, 1024 * 1024), 'fault configuration') as FaultConfig);
        else if (method === 'DELETE') parts.faults.clear();
        else if (method !== 'GET') throw new GcsError(405, 'methodNotAllowed', `Use GET, POST or DELETE on ${path}`);
        return send(res, { status: 200, json: parts.faults.toJSON() }, now());
      }
      if (path === '/_emulator/requests') {
        if (method === 'DELETE') parts.requests.clear();
        return send(res, { status: 200, json: { requests: parts.requests.entries } }, now());
      }
      if (path === '/_emulator/health') return send(res, { status: 200, json: { ok: true } }, now());
      throw new GcsError(404, 'notFound', `Unknown emulator control endpoint ${path}`);
    } catch (err) {
      if (!(err instanceof GcsError)) throw err;
      send(res, errorReply(err), now());
    }
  }

  return server;
}

function errorReply(err: GcsError): Reply {
  return { status: err.status, json: err.toJSON() };
}

function send(res: ServerResponse, reply: Reply, now: number): void {
  if (res.destroyed) return;
  res.setHeader('Date', new Date(now).toUTCString());
  res.setHeader('Cache-Control', 'no-cache, no-store, max-age=0, must-revalidate');
  for (const [key, value] of Object.entries(reply.headers ?? {})) res.setHeader(key, value);
  if (reply.status === 204 || reply.status === 304) {
    res.writeHead(reply.status).end();
    return;
  }
  const body = reply.json !== undefined ? Buffer.from(JSON.stringify(reply.json)) : (reply.body ?? Buffer.alloc(0));
  if (reply.json !== undefined) res.setHeader('Content-Type', 'application/json; charset=UTF-8');
  res.setHeader('Content-Length', body.length);
  res.writeHead(reply.status).end(body);
}

function sleepUnlessClosed(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    res.once('close', done);
    function done(): void {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    }
  });
}
