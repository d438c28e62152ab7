// Azurite (npm `azurite`, pinned to 3.35 for Node 20; Microsoft's Blob Storage emulator, not ours) for tests: one
// blob service on a free loopback port, in memory, stopped by the test that started it. Its well-known dev account
// is reached through a connection string, as Lockboard reads it (AZURE_STORAGE_CONNECTION_STRING).
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BlobServiceClient, type ContainerClient } from '@azure/storage-blob';
import { freePort } from './browser';
import { delay } from './requests';

export const AZURITE_BIN = fileURLToPath(new URL('../../node_modules/.bin/azurite-blob', import.meta.url));
export const DEV_ACCOUNT = 'devstoreaccount1';
export const DEV_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export interface TestAzurite {
  url: string;
  port: number;
  /** AZURE_STORAGE_CONNECTION_STRING for the dev account on this server. */
  connectionString: string;
  env: Record<string, string>;
  service: BlobServiceClient;
  /** The container, created if absent. */
  container(name: string): Promise<ContainerClient>;
  stop(): Promise<void>;
}

function requireAzurite(): void {
  if (!existsSync(AZURITE_BIN))
    throw new Error('These tests need Azurite: install it with "npm install --save-dev azurite@~3.35.0".');
}

export function connectionStringFor(url: string): string {
  return `DefaultEndpointsProtocol=http;AccountName=${DEV_ACCOUNT};AccountKey=${DEV_KEY};BlobEndpoint=${url}/${DEV_ACCOUNT};`;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1', () => (s.end(), resolve(true)));
    s.once('error', () => resolve(false));
  });

async function waitUntilAnswering(child: ChildProcess, url: string, port: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`azurite-blob exited (${child.exitCode}) before answering`);
    if (await accepts(port)) return;
    await delay(50);
  }
  child.kill('SIGKILL');
  throw new Error(`azurite-blob did not answer on ${url}`);
}

/**
 * `https`: serve TLS with this certificate; `accounts`: AZURITE_ACCOUNTS (`name:base64key`) besides the dev one;
 * `location`: keep its database in this folder (saved when it stops) instead of in memory.
 */
export async function startAzurite(
  o: { https?: { cert: string; key: string }; accounts?: string; location?: string } = {},
) {
  requireAzurite();
  const port = await freePort();
  const tls = o.https ? ['--cert', o.https.cert, '--key', o.https.key] : [];
  const child = spawn(
    AZURITE_BIN,
    [
      '--blobHost',
      '127.0.0.1',
      '--blobPort',
      String(port),
      ...(o.location ? ['--location', o.location] : ['--inMemoryPersistence']),
      '--loose',
      '--skipApiVersionCheck',
      '--disableTelemetry',
      ...tls,
    ],
    { stdio: 'ignore', env: { ...process.env, ...(o.accounts ? { AZURITE_ACCOUNTS: o.accounts } : {}) } },
  );
  const url = `${o.https ? 'https' : 'http'}://127.0.0.1:${port}`;
  await waitUntilAnswering(child, url, port);
  const connectionString = connectionStringFor(url);
  const service = BlobServiceClient.fromConnectionString(connectionString);
  const azurite: TestAzurite = {
    url,
    port,
    connectionString,
    env: { AZURE_STORAGE_CONNECTION_STRING: connectionString },
    service,
    async container(name) {
      const c = service.getContainerClient(name);
      await c.createIfNotExists();
      return c;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM'); // Azurite saves its database (with `location`) and closes
      await Promise.race([exited, delay(o.location ? 30_000 : 3_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
  return azurite;
}
