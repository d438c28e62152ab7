// The demo's banner waits for the console to answer its login page as well as its health check (issue #62: a console
// whose /api/health had answered once was announced while /login timed out), each within its bound however the
// server holds a connection, and steadily: a console that answered once and then stalls for seconds is not announced.
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleAnswers, consoleSteady } from '@/lib/demo/answers';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

async function serve(login: 'answers' | 'hangs'): Promise<string> {
  server = createServer((req, res) => {
    if (req.url === '/api/health') return void res.end('{"status":"ok"}');
    if (req.url === '/login' && login === 'answers') return void res.end('<html></html>');
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe('when the demo may print its banner', () => {
  it('once the console answers /api/health and /login', async () => {
    expect(await consoleAnswers(await serve('answers'))).toBe(true);
  });

  it('not while /login gives no answer, however /api/health answers', async () => {
    expect(await consoleAnswers(await serve('hangs'), { pageMs: 300 })).toBe(false);
  });

  it('not while nothing listens', async () => {
    expect(await consoleAnswers('http://127.0.0.1:1')).toBe(false);
  });

  it('not while a connection is accepted and never answered, each check within its bound', async () => {
    // a server that takes connections and never writes a byte (a console caught mid-start)
    const sockets: Socket[] = [];
    const mute: TcpServer = createTcpServer((socket) => void sockets.push(socket));
    await new Promise<void>((r) => mute.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(mute.address() as { port: number }).port}`;
      const started = performance.now();
      expect(await consoleAnswers(url, { pageMs: 300 })).toBe(false);
      expect(performance.now() - started).toBeLessThan(2_500); // /api/health's own bound (1 s), with room
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => mute.close(r));
    }
  });

  it('is steady only once it answered every check of a row in time: not while it stalls after a first answer', async () => {
    // a console that answers at once, then stops answering for 2 s (its stores' SDKs loading), then answers again
    const opened = Date.now();
    let stalled = 0;
    server = createServer((req, res) => {
      const late = Date.now() - opened > 300 && Date.now() - opened < 2_300;
      if (late) stalled++;
      setTimeout(() => res.end('ok'), late ? 1_500 : 0);
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    expect(await consoleAnswers(url)).toBe(true);
    const steady = await consoleSteady(url, { times: 4, gapMs: 100, withinMs: 1_000, waitMs: 15_000 });
    expect(steady).toBe(true);
    expect(stalled).toBeGreaterThan(0); // it did ask while the console stalled, and waited past it
    expect(Date.now() - opened).toBeGreaterThan(2_300);
    // and gives up, saying so, on one never steady within its wait
    const never = await consoleSteady('http://127.0.0.1:1', { times: 2, gapMs: 50, waitMs: 500 });
    expect(never).toBe(false);
  });
});
