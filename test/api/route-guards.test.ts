// Scope by construction (#57): every `app/**/route.ts` and `app/**/page.tsx`, found on disk rather than listed by
// hand, is either guarded (withRole / sseRoute for a route, requireRole for a page: its data only through the board
// built from the caller's access) or on the public list below with its reason. A new route or page that is neither
// fails here, as does one that reaches for an unscoped read (queryForConsole, getForConsole, forceReleasePinned, …)
// instead of its board. Every guarded route answers an anonymous caller 401, whatever its method.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, SECRET } from '../helpers/routes';

const ROOT = join(__dirname, '../..');

/** Reached without a grant, on purpose: each says why nothing of a lock outside the caller's grants is in it. */
const PUBLIC: Record<string, string> = {
  'app/api/health/route.ts': 'liveness for load balancers: "ok" or "degraded", no lock, grant or count',
  'app/api/openapi.json/route.ts': 'the API description, generated from the schemas: the same for everyone',
  'app/api/auth/[...nextauth]/route.ts': 'signing in and out itself (next-auth)',
  'app/api/gcs-events/route.ts':
    'Pub/Sub pushes, authenticated by their OIDC or shared token; answers what was written',
  'app/api/metrics/route.ts':
    'its own bearer: the metrics token (every lock, by name) or an API token, through boardOf(its access)',
  'app/login/page.tsx': 'the sign-in form',
  'app/page.tsx': 'redirects to /locks, which is guarded',
};

/** Reads that ignore the caller's grants unless handed them: a route or page uses its board instead. */
const UNSCOPED = [
  'queryForConsole',
  'getForConsole',
  'forceReleasePinned',
  'readEventsFor',
  'readEvents',
  'lockStream',
  'oneLockStream',
  'statusOf',
  'windowOf',
  'viewerOf',
  'storeFor',
  'watcherFor',
  'sourcesFor',
  'selectionFor',
  'resolveSources',
  'resolveSourcesFor',
  'matchSources',
];

function filesUnder(dir: string, names: RegExp): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => names.test(f.split('/').pop()!))
    .map((f) => relative(ROOT, join(ROOT, dir, f)))
    .sort();
}

const routes = filesUnder('app', /^route\.ts$/);
const pages = filesUnder('app', /^page\.tsx$/);
const source = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The names a file imports (and re-exports), whatever the module. */
const importedNames = (text: string) =>
  [...text.matchAll(/^(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s/gm)].flatMap((m) =>
    m[1]!.split(',').map(
      (n) =>
        n
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!,
    ),
  );

describe('every route and page is scoped or publicly reasoned', () => {
  it('finds the routes and pages on disk, and the public list names only files that exist', () => {
    expect(routes.length).toBeGreaterThanOrEqual(14);
    expect(pages.length).toBeGreaterThanOrEqual(6);
    for (const file of Object.keys(PUBLIC)) expect([...routes, ...pages], file).toContain(file);
    for (const reason of Object.values(PUBLIC)) expect(reason.length).toBeGreaterThan(10);
  });

  it.each(routes.filter((f) => !(f in PUBLIC)))('%s: each method through withRole or sseRoute', (file) => {
    const text = source(file);
    const exported = METHODS.filter((m) =>
      new RegExp(`^export\\s+(const|async function|function)\\s+${m}\\b`, 'm').test(text),
    );
    expect(exported.length, `${file} exports no handler`).toBeGreaterThan(0);
    for (const m of exported)
      expect(text, `${file} ${m}`).toMatch(new RegExp(`^export const ${m} = (withRole(<[^>]*>)?|sseRoute)\\(`, 'm'));
    expect(text, `${file} re-exports a handler`).not.toMatch(/^export\s*\{/m);
  });

  it.each(pages.filter((f) => !(f in PUBLIC)))('%s: requireRole before anything else is read', (file) => {
    const text = source(file);
    expect(text, file).toMatch(/await requireRole\(/);
    expect(text, `${file} is a client page`).not.toMatch(/^['"]use client['"]/m);
  });

  it('the metrics route scopes its scraper through a board too', () => {
    expect(source('app/api/metrics/route.ts')).toMatch(/boardOf\(scraper\(req\)\)/);
  });

  it('no file under app/ or components/ imports an unscoped read: their data comes through the board', () => {
    const files = [...filesUnder('app', /\.tsx?$/), ...filesUnder('components', /\.tsx?$/)];
    expect(files).toEqual(expect.arrayContaining([...routes, ...pages]));
    const offenders = files.flatMap((file) =>
      importedNames(source(file))
        .filter((n) => UNSCOPED.includes(n))
        .map((n) => `${file}: ${n}`),
    );
    expect(offenders).toEqual([]);
  });
});

describe('every guarded route refuses an anonymous caller', () => {
  beforeAll(() => {
    Object.assign(process.env, {
      LOCKBOARD_SOURCES: 'gs://guards-bucket/locks/',
      LOCKBOARD_METRICS_TOKEN: 'metrics-token-0123456789',
      NEXTAUTH_SECRET: SECRET,
    });
    delete process.env.LOCKBOARD_ACCESS_FILE;
  });

  it.each(routes.filter((f) => !(f in PUBLIC) || f === 'app/api/metrics/route.ts'))('%s: 401', async (file) => {
    const mod = (await import(/* @vite-ignore */ join(ROOT, file))) as Record<string, unknown>;
    for (const m of METHODS) {
      const handler = mod[m] as Parameters<typeof call>[0] | undefined;
      if (!handler) continue;
      const path = `/${file.replace(/^app\//, '').replace(/\/route\.ts$/, '')}`.replace(/\[\.\.\.(\w+)\]/, 'x');
      const r = await call(handler, path, { method: m, ...(m === 'GET' ? {} : { body: {} }) }, { name: ['x'] });
      expect(r.status, `${m} ${file}`).toBe(401);
    }
  });
});
