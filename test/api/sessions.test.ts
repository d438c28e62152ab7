// Sessions that end and redirects that stay home (#39 item 5): sign-out revokes, an absolute limit, callbacks parsed
// as URLs, and an Origin check on scheme, host and port.
import { randomUUID } from 'node:crypto';
import { encode, type JWT } from 'next-auth/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeRedirect, safeReturnPath } from '@/lib/server/auth/return-path';
import { SESSION_ABSOLUTE_MS } from '@/lib/server/auth/session-guard';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { call, importRoutes, SECRET, type Routes } from '../helpers/routes';

const OPERATOR = 'ops@example.com';
let t: Target;
let routes: Routes;

beforeAll(async () => {
  t = await startTestEmulator();
  Object.assign(process.env, {
    LOCKBOARD_BUCKET: t.bucket,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    LOCKBOARD_OPERATORS: OPERATOR,
    NEXTAUTH_SECRET: SECRET,
  });
  routes = await importRoutes();
});
afterAll(() => t.close());

async function cookieFor(token: JWT): Promise<string> {
  return `next-auth.session-token=${await encode({ token, secret: SECRET })}`;
}
const fresh = (): JWT => ({ email: OPERATOR, sub: OPERATOR, sid: randomUUID(), authAt: Date.now() });
const list = (cookie: string) => call(routes.locks.GET, '/api/locks', { headers: { cookie } });

describe('sessions', () => {
  it('refuses a session after its holder signed out, on every later request', async () => {
    const { authOptions } = await import('@/lib/server/auth/auth');
    const token: JWT = { email: OPERATOR, sub: OPERATOR, sid: randomUUID(), authAt: Date.now() };
    const cookie = await cookieFor(token);
    expect((await list(cookie)).status).toBe(200);
    await authOptions().events!.signOut!({ token, session: null as never });
    const after = await list(cookie);
    expect(after.status).toBe(401);
    expect((after.json.error as { message: string }).message).toMatch(/signed out/);
    const session = await authOptions().callbacks!.session!({ session: { expires: '' }, token } as never);
    expect((session as { user?: unknown }).user).toBeUndefined();
  });

  it('shares a sign-out through the trail: a replica that never saw it refuses the session too', async () => {
    const { authOptions } = await import('@/lib/server/auth/auth');
    const token: JWT = { email: OPERATOR, sub: OPERATOR, sid: randomUUID(), authAt: Date.now() };
    const cookie = await cookieFor(token);
    expect((await list(cookie)).status).toBe(200);
    await authOptions().events!.signOut!({ token, session: null as never });
    // another replica: nothing of this process's own memory of the sign-out, only the trail they share
    for (const k of ['lockboard.revokedSessions', 'lockboard.sharedRevocations'])
      delete (globalThis as Record<symbol, unknown>)[Symbol.for(k)];
    const after = await list(cookie);
    expect(after.status).toBe(401);
    expect((after.json.error as { message: string }).message).toMatch(/signed out/);
    const audit = await call(routes.audit.GET, '/api/audit?days=1', { headers: { cookie: await cookieFor(fresh()) } });
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.json)).not.toContain('.lockboard/sessions');
  });

  it('ends a session at its absolute limit, however recently it was used', async () => {
    const old: JWT = {
      email: OPERATOR,
      sub: OPERATOR,
      sid: randomUUID(),
      authAt: Date.now() - SESSION_ABSOLUTE_MS - 1,
    };
    const r = await list(await cookieFor(old));
    expect(r.status).toBe(401);
    expect((r.json.error as { message: string }).message).toMatch(/at most 12 hours/);
  });

  it('keeps the sign-in time when next-auth re-issues the token', async () => {
    const { authOptions } = await import('@/lib/server/auth/auth');
    const authAt = Date.now() - 3600_000;
    const next = await authOptions().callbacks!.jwt!({ token: { email: OPERATOR, sid: 's1', authAt } } as never);
    expect(next).toMatchObject({ sid: 's1', authAt });
  });
});

describe('redirects after sign-in', () => {
  it('keeps callbacks on the console, as a browser would parse them', () => {
    for (const bad of ['/\t/localhost:3599/phish', '/\n/evil.example', '/\\evil.example', '//evil.example', 'x'])
      expect(safeReturnPath(bad)).toBe('/locks');
    expect(safeReturnPath('/locks/a?source=gs%3A%2F%2Fb#x')).toBe('/locks/a?source=gs%3A%2F%2Fb#x');
    expect(safeRedirect('/\t/localhost:3599/phish', 'https://c.example')).toBe('https://c.example/locks');
  });

  it('answers any character with a header-safe path (no 500 above U+00FF)', () => {
    const path = safeReturnPath('/locks/déploy-\u2603?q=\u{1F512}');
    expect(path).toBe('/locks/d%C3%A9ploy-%E2%98%83?q=%F0%9F%94%92');
    expect(() => new Headers({ location: path })).not.toThrow();
  });
});

describe('the Origin check', () => {
  it('compares scheme and port as well as the host', async () => {
    const { sessionCookie } = await import('../helpers/routes');
    const cookie = await sessionCookie(OPERATOR);
    for (const origin of ['https://console.test', 'http://console.test:8080']) {
      const r = await call(routes.release.POST, '/api/locks/release', {
        method: 'POST',
        headers: { cookie, origin },
        body: { name: 'locks/x', version: '1.1', reason: 'test' },
      });
      expect(r.status, origin).toBe(403);
      expect((r.json.error as { message: string }).message).toMatch(/Cross-origin/);
    }
  });
});
