// The demo's banner waits for the console to answer its login page as well as its health check (issue #62: a console
// whose /api/health had answered once was announced while /login timed out).
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleAnswers } from '@/lib/demo/answers';

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
});
