// A production console on the emulator with Chromium beside it, and browser contexts signed in as any e-mail
// (a next-auth session cookie minted with the console's secret, as a sign-in would set it).
import { encode } from 'next-auth/jwt';
import type { Browser, BrowserContext } from 'playwright-core';
import { buildConsole, needsBuild, startConsole, type ConsoleProcess } from '@/lib/demo/console';
import { freePort, launchBrowser } from './browser';

export interface BrowserConsole {
  app: ConsoleProcess;
  browser: Browser;
  contextAs(email: string, viewport?: { width: number; height: number }): Promise<BrowserContext>;
  close(): Promise<void>;
}

export async function startBrowserConsole(env: Record<string, string>): Promise<BrowserConsole> {
  const browser = await launchBrowser();
  if (needsBuild()) buildConsole();
  const secret = env.NEXTAUTH_SECRET ?? 'e2e-secret-0123456789abcdef0123';
  const app = await startConsole(await freePort(), { LOCKBOARD_DEMO: '1', NEXTAUTH_SECRET: secret, ...env });
  return {
    app,
    browser,
    async contextAs(email, viewport = { width: 1400, height: 900 }) {
      const context = await browser.newContext({ viewport });
      const token = await encode({ token: { email, name: email, sub: email }, secret });
      await context.addCookies([{ name: 'next-auth.session-token', value: token, url: app.url }]);
      return context;
    },
    async close() {
      await app.stop();
      await browser.close();
    },
  };
}
