// Browser tests: Debian's Chromium driven by playwright-core (never a downloaded browser).
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.LOCKBOARD_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = 'test-results/screenshots';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Browser tests need Chromium at ${CHROMIUM}: install it with "apt-get install -y chromium" (or set LOCKBOARD_CHROMIUM).`,
    );
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
