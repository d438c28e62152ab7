// The console as the container runs it: the standalone server copied alone into an empty directory (no repository,
// no node_modules beside it), started with `node server.js`, signed in over HTTP, serving pages, assets and the API.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, type Lock } from '@/lib/lock';
import { SERVER } from '@/lib/demo/console';
import { freePort } from '../helpers/browser';
import { startTestEmulator, type Target } from '../helpers/gcs';

const ROOT = join(import.meta.dirname, '..', '..');
let dir = '';
let t: Target;
let lock: Lock;
let server: ChildProcess;
let url = '';
let output = '';

beforeAll(async () => {
  if (!existsSync(SERVER))
    throw new Error('.next/standalone is missing: run "npm run build" (npm test does this first)');
  dir = mkdtempSync(join(tmpdir(), 'lockboard-image-'));
  // What the Dockerfile's runtime stage copies: .next/standalone (with the static files the build script put there)
  cpSync(join(ROOT, '.next', 'standalone'), join(dir, 'app'), { recursive: true });
  t = await startTestEmulator();
  lock = await acquireLock({ storage: t.storage, bucket: t.bucket, name: 'locks/deploy-prod', purpose: 'deploy' });
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['server.js'], {
    cwd: join(dir, 'app'),
    // Only what the image sets plus the deployment's configuration: nothing from this repository's environment
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      PORT: String(port),
      HOSTNAME: '127.0.0.1',
      NEXTAUTH_URL: url,
      NEXTAUTH_SECRET: 'container-secret-0123456789abcdef',
      LOCKBOARD_DEMO: '1',
      LOCKBOARD_BUCKET: t.bucket,
      LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  server.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server.js exited during start-up:\n${output}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`server.js did not answer /api/health within 30 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  await lock?.release();
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Cookies from Set-Cookie headers, as a browser would keep them. */
function cookiesOf(res: Response, jar: Map<string, string>): void {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const i = pair!.indexOf('=');
    jar.set(pair!.slice(0, i), pair!.slice(i + 1));
  }
}
const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

describe('the standalone server the container runs', () => {
  it('answers the health check and refuses the API without a session', async () => {
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    const res = await fetch(`${url}/api/locks`);
    expect(res.status).toBe(401);
  });

  it('signs an operator in, then serves the locks page with its assets and the API', async () => {
    const jar = new Map<string, string>();
    const csrf = await fetch(`${url}/api/auth/csrf`);
    cookiesOf(csrf, jar);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const signIn = await fetch(`${url}/api/auth/callback/demo`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader(jar), origin: url },
      body: new URLSearchParams({ csrfToken, email: 'operator@demo.lockboard', password: 'operator', json: 'true' }),
    });
    cookiesOf(signIn, jar);
    expect(
      [...jar.keys()].some((k) => k.includes('session-token')),
      `no session cookie; server said:\n${output}`,
    ).toBe(true);

    const api = await fetch(`${url}/api/locks`, { headers: { cookie: cookieHeader(jar) } });
    expect(api.status).toBe(200);
    const body = (await api.json()) as { locks: { name: string; generation: string }[] };
    expect(body.locks.map((l) => [l.name, l.generation])).toContainEqual(['locks/deploy-prod', lock.generation]);

    const page = await fetch(`${url}/locks`, { headers: { cookie: cookieHeader(jar) } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const scripts = [...html.matchAll(/src="(\/_next\/static\/[^"]+\.js)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts.slice(0, 5)) expect((await fetch(`${url}${src}`)).status, src).toBe(200);
    expect(output).not.toMatch(/Error|ENOENT|Cannot find module/);
  });

  it('is the server the Dockerfile runs: non-root, health-checked, standalone only', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/COPY --from=build\s+--chown=\S+\s+\/app\/\.next\/standalone\s/);
    expect(dockerfile).toMatch(/^USER (?!root)\S+/m);
    expect(dockerfile).toMatch(/HEALTHCHECK[^\n]*\n?[^\n]*\/api\/health/);
    expect(dockerfile).toMatch(/CMD \["node", "server.js"\]/);
    expect(readFileSync(join(ROOT, '.dockerignore'), 'utf8')).toMatch(/^node_modules$/m);
  });
});
