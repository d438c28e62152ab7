// Sign-in through a real OpenID provider (npm oidc-provider, the certified implementation) on 127.0.0.1 issuing a
// `groups` claim: the console asks for the groups scope (OIDC_SCOPES), takes the groups into the session, shows them
// on the user menu, and scopes what the user sees by a grant to the group (LOCKBOARD_ACCESS_FILE) — in Chromium.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, type Lock } from '@/lib/lock';
import { buildConsole, needsBuild, startConsole, type ConsoleProcess } from '@/lib/demo/console';
import { freePort, launchBrowser } from '../helpers/browser';
import { startTestEmulator, type Target } from '../helpers/gcs';

const EMAIL = 'lee@example.com';
const SECRET = 'oidc-client-secret-0123456789abcdef';

let t: Target;
let idp: Server;
let app: ConsoleProcess;
let browser: Browser;
const held: Lock[] = [];

/** oidc-provider on 127.0.0.1 with one client (the console) and one account in the group "ci-team". */
async function startProvider(port: number, consoleUrl: string): Promise<Server> {
  const { default: Provider } = (await import('oidc-provider')) as unknown as {
    default: new (issuer: string, config: object) => { callback(): Parameters<typeof createServer>[1] };
  };
  const provider = new Provider(`http://127.0.0.1:${port}`, {
    clients: [
      {
        client_id: 'lockboard',
        client_secret: SECRET,
        redirect_uris: [`${consoleUrl}/api/auth/callback/oidc`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    // the scope's claims in the ID token itself (next-auth reads the ID token's claims)
    conformIdTokenClaims: false,
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({ sub, email: EMAIL, email_verified: true, name: 'Lee', groups: ['ci-team', 'everyone'] }),
    }),
    cookies: { keys: ['oidc-cookie-key-0123456789abcdef'] },
  });
  const server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  t = await startTestEmulator();
  for (const name of ['ci/build', 'locks/deploy'])
    held.push(await acquireLock({ storage: t.storage, bucket: t.bucket, name, ttlMs: 60_000, identity: name }));
  const [idpPort, consolePort] = [await freePort(), await freePort()];
  const consoleUrl = `http://127.0.0.1:${consolePort}`;
  idp = await startProvider(idpPort, consoleUrl);
  const dir = mkdtempSync(join(tmpdir(), 'lockboard-oidc-'));
  const access = join(dir, 'access.yaml');
  writeFileSync(
    access,
    `grants:\n  - who: [group:ci-team]\n    role: operator\n    locks: ['gs://${t.bucket}/ci/*']\n`,
  );
  if (needsBuild()) buildConsole();
  browser = await launchBrowser();
  app = await startConsole(consolePort, {
    LOCKBOARD_SOURCES: `gs://${t.bucket}/locks/,gs://${t.bucket}/ci/`,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    LOCKBOARD_ACCESS_FILE: access,
    NEXTAUTH_SECRET: 'e2e-secret-0123456789abcdef0123',
    OIDC_ISSUER: `http://127.0.0.1:${idpPort}`,
    OIDC_CLIENT_ID: 'lockboard',
    OIDC_CLIENT_SECRET: SECRET,
    OIDC_SCOPES: 'openid email profile groups',
  });
}, 600_000);
afterAll(async () => {
  await Promise.allSettled(held.map((l) => l.release()));
  await app?.stop();
  await browser?.close();
  await new Promise((r) => idp?.close(r));
  await t?.close();
});

describe('sign-in through an OpenID provider with groups', () => {
  it('takes the groups claim into the session, shows it, and scopes the locks by the group’s grant', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${app.url}/locks`);
    await page.getByRole('button', { name: 'Single sign-on' }).click();
    // oidc-provider's own login and consent pages
    await page.locator('input[name="login"]').fill('lee');
    await page.locator('input[name="password"]').fill('any');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click(); // consent: openid email profile groups
    await page.waitForURL(`${app.url}/locks**`, { timeout: 30_000 });
    await expect.poll(() => page.getByTestId('whoami').textContent()).toMatch(/lee@example\.com · operator/);
    expect(await page.getByTestId('groups').textContent()).toMatch(/ci-team/);
    await page.getByText('ci/build').first().waitFor();
    expect(await page.getByText('locks/deploy').count()).toBe(0);
    const res = await page.request.get(`${app.url}/api/locks?source=all`);
    const body = (await res.json()) as { total: number; locks: { name: string }[] };
    expect(body.locks.map((l) => l.name)).toEqual(['ci/build']);
    expect(body.total).toBe(1);
  }, 120_000);
});
