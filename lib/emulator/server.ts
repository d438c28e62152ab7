// The emulator's HTTP server: control endpoints, fault injection, request log, then the GCS routes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { GcsError, rateLimited } from './errors';
import { Faults, WriteRateLimiter, type FaultConfig } from './testing/faults';
import { parseJson, readBody } from './json-api/http';
import type { Notifications } from './json-api/notifications';
import type { ObjectStore } from './objects/objects';
import { RequestLog } from './testing/request-log';
import { route, type Reply, type RouteContext } from './json-api/routes';
import { xmlError, xmlRead, xmlTarget } from './json-api/xml-reads';

const UPLOAD_LIMIT = 64 * 1024 * 1024;
const FAULT_ERRORS: Record<number, [string, string]> = {
  409: ['conflict', 'A concurrent request changed the object (injected fault)'],
  429: ['rateLimitExceeded', 'The rate of requests is too high (injected fault)'],
  500: ['internalError', 'Internal Error (injected fault)'],
  503: ['backendError', 'Service Unavailable (injected fault)'],
};

interface ServerParts {
  store: ObjectStore;
  notifications: Notifications;
  faults: Faults;
  requests: RequestLog;
  clock: () => number;
}

/** The server's parts, with the write-rate limiter, open uploads and the clock as requests see it. */
interface Parts extends ServerParts {
  limiter: WriteRateLimiter;
  uploads: RouteContext['uploads'];
  now(): number;
}

export function createEmulatorServer(given: ServerParts): Server {
  const parts: Parts = {
    ...given,
    limiter: new WriteRateLimiter(),
    uploads: new Map(),
    now: () => given.clock() + given.faults.clockOffsetMs,
  };
  const server = createServer({ maxHeaderSize: 16 * 1024 }, (req, res) => {
    handle(parts, req, res).catch((err: unknown) => {
      console.error('[emulator] unexpected error:', err);
      if (!res.headersSent) send(res, errorReply(new GcsError(500, 'internalError', 'Internal Error')), parts.now());
    });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => refuseMalformed(err, socket, parts.now()));
  return server;
}

/** A request Node's parser refused (headers too large, bad syntax): answered as GCS does, then closed. */
function refuseMalformed(err: NodeJS.ErrnoException, socket: import('node:stream').Duplex, now: number): void {
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
      `Date: ${new Date(now).toUTCString()}\r\nConnection: close\r\n\r\n${body}`,
  );
}

async function handle(parts: Parts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://emulator');
  const method = req.method ?? 'GET';
  const path = url.pathname.replace(/\/{2,}/g, '/');
  if (path.startsWith('/_emulator/')) return control(parts, method, path, req, res);
  const { log, end } = parts.requests.track(method, path, url);
  try {
    await serve(parts, req, res, { url, method, path, log });
  } finally {
    end();
  }
}

interface Incoming {
  url: URL;
  method: string;
  path: string;
  log: (status: number, fault?: string) => void;
}

async function serve(parts: Parts, req: IncomingMessage, res: ServerResponse, r: Incoming): Promise<void> {
  const { url, method, path, log } = r;
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
    send(res, xml ? xmlError(err) : errorReply(err), parts.now());
    return log(decision.errorStatus, 'error');
  }
  let reply: Reply;
  const faulted: { fault?: string } = {};
  try {
    const body = await readBody(req, UPLOAD_LIMIT);
    reply = xml
      ? xmlRead(xml, req, url.searchParams, parts.store)
      : route(method, path, routeContext(parts, req, url, body, faulted));
  } catch (err) {
    if (!(err instanceof GcsError)) throw err;
    reply = errorReply(err);
  }
  if (decision.drop) {
    req.socket.destroy();
    return log(0, 'drop');
  }
  send(res, reply, parts.now());
  log(reply.status, faulted.fault);
}

/** What a GCS route needs of one request; a write over GCS's per-object rate is refused as GCS does (429). */
function routeContext(
  parts: Parts,
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  faulted: { fault?: string },
): RouteContext {
  return {
    store: parts.store,
    now: parts.now(),
    baseUrl: `http://${req.headers.host ?? 'localhost'}`,
    query: url.searchParams,
    body,
    req,
    uploads: parts.uploads,
    notifications: parts.notifications,
    checkWriteRate(bucket, name) {
      const rl = parts.faults.rateLimit;
      if (rl.enabled && !parts.limiter.take(`${bucket}/${name}`, parts.clock(), rl.perSecond, rl.burst)) {
        faulted.fault = 'rate-limit';
        throw rateLimited(name);
      }
    },
  };
}

async function control(
  parts: Parts,
  method: string,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  try {
    if (path === '/_emulator/faults') {
      if (method === 'POST')
        parts.faults.set(parseJson(await readBody(req, 1024 * 1024), 'fault configuration') as FaultConfig);
      else if (method === 'DELETE') parts.faults.clear();
      else if (method !== 'GET') throw new GcsError(405, 'methodNotAllowed', `Use GET, POST or DELETE on ${path}`);
      return send(res, { status: 200, json: parts.faults.toJSON() }, parts.now());
    }
    if (path === '/_emulator/requests') {
      if (method === 'DELETE') parts.requests.clear();
      return send(res, { status: 200, json: { requests: parts.requests.entries } }, parts.now());
    }
    if (path === '/_emulator/health') return send(res, { status: 200, json: { ok: true } }, parts.now());
    throw new GcsError(404, 'notFound', `Unknown emulator control endpoint ${path}`);
  } catch (err) {
    if (!(err instanceof GcsError)) throw err;
    send(res, errorReply(err), parts.now());
  }
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
