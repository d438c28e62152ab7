// Issue #62: a store's endpoint where something that does not speak its protocol answers (a server still starting, a
// wrong port). Each source opened as the console opens it, against a loopback server that answers every connection
// with bytes that are neither HTTP, RESP nor ZooKeeper's frames: its listing and its trail fail as unavailable
// (store-errors.ts: the console's unreachable note, the CLI's exit 3), never as an empty source or an uncaught throw.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockStore } from '@/lib/lock/store';
import { storeUnavailable } from '@/lib/lock/store-errors';
import { openSource, parseSource } from '@/lib/lock/stores';

const GARBAGE = Buffer.from('\u0000\u0000\u0000\u0020garbage\r\n-ERR x\r\n$-9\r\n' + '\u00ff'.repeat(64), 'latin1');
const ACCOUNT_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';
let server: Server;
const sockets = new Set<Socket>();
let port: number;
const opened: LockStore[] = [];
const uncaught: unknown[] = [];
const note = (err: unknown) => uncaught.push(err);

beforeAll(async () => {
  process.on('uncaughtException', note);
  process.on('unhandledRejection', note);
  server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.write(GARBAGE);
    s.on('data', () => s.writable && s.write(GARBAGE));
  });
  port = await new Promise<number>((r) =>
    server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)),
  );
});
afterAll(async () => {
  await Promise.allSettled(opened.map((s) => s.close?.()));
  process.removeListener('uncaughtException', note);
  process.removeListener('unhandledRejection', note);
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

async function failures(url: string, env: Record<string, string>): Promise<unknown[]> {
  const store = await openSource(parseSource(url, env), { role: 'console', env });
  opened.push(store);
  const settled = await Promise.allSettled([store.list(), store.readAudit(new Date(0), new Date())]);
  return settled.map((r) => (r.status === 'rejected' ? r.reason : 'answered'));
}

describe('an endpoint that answers garbage', () => {
  it.each([
    ['DynamoDB', 'dynamodb://tf-locks', () => ({ AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${port}` })],
    ['S3', 's3://state/', () => ({ AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}` })],
    [
      'Azure Blob Storage',
      'azure://devstoreaccount1/tfstate/',
      () => ({
        AZURE_STORAGE_CONNECTION_STRING: `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${ACCOUNT_KEY};BlobEndpoint=http://127.0.0.1:${port}/devstoreaccount1;`,
      }),
    ],
    ['ZooKeeper', 'zookeeper://127.0.0.1:PORT/', () => ({})],
  ])(
    '%s: the listing and the trail fail as unavailable',
    async (_, url, env) => {
      const errors = await failures(url.replace('PORT', String(port)), env());
      for (const err of errors) expect(storeUnavailable(err), String(err)).toBeTruthy();
      expect(uncaught).toEqual([]);
    },
    30_000,
  );
});
