// GET /api/openapi.json: an OpenAPI 3.1 document generated from the routes' own zod schemas, served without a session,
// describing every route under app/api (found by walking the folder) with its parameters and answers.
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, SECRET } from '../helpers/routes';

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { parameters: { name: string; in: string }[]; responses: object; requestBody?: unknown }>
  >;
};

/** Every route.ts under app/api, as its URL path (`[...name]` → `{name}`). */
function routeFiles(dir = 'app/api'): { file: string; path: string }[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) return routeFiles(full);
    if (entry !== 'route.ts') return [];
    const segments = relative('app', dir)
      .split(sep)
      .map((s) => s.replace(/^\[(?:\.\.\.)?(.+)\]$/, '{$1}'));
    return [{ file: full, path: `/${segments.join('/')}` }];
  });
}

let doc: Doc;
beforeAll(async () => {
  Object.assign(process.env, { LOCKBOARD_BUCKET: 'test-bucket', NEXTAUTH_SECRET: SECRET });
  const route = await import('@/app/api/openapi.json/route');
  const r = await call(route.GET as never, '/api/openapi.json');
  expect(r.status).toBe(200);
  doc = r.json as unknown as Doc;
});

describe('GET /api/openapi.json', () => {
  it('is OpenAPI 3.1, served without a session', () => {
    expect(doc.openapi).toBe('3.1.0');
  });

  it('lists every route under app/api with each method it exports, its parameters and answers', async () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThanOrEqual(12);
    for (const { file, path } of files) {
      const mod = (await import(`@/${file.replace(/\.ts$/, '')}`)) as Record<string, unknown>;
      const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => typeof mod[m] === 'function');
      expect(methods.length, file).toBeGreaterThan(0);
      for (const m of methods) {
        const op = doc.paths[path]?.[m.toLowerCase()];
        expect(op, `${m} ${path} (${file})`).toBeDefined();
        expect(Object.keys(op!.responses).length, `${m} ${path}`).toBeGreaterThan(0);
        for (const p of path.match(/\{(\w+)\}/g) ?? [])
          expect(
            op!.parameters.map((x) => `{${x.name}}`),
            `${m} ${path}`,
          ).toContain(p);
      }
    }
    expect(Object.keys(doc.paths).sort()).toEqual([...new Set(files.map((f) => f.path))].sort());
  });

  it('generates parameters and bodies from the schemas the routes validate with', () => {
    const list = doc.paths['/api/locks']!.get!;
    expect(list.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(['source', 'q', 'health', 'sort', 'order', 'cursor', 'limit']),
    );
    const health = list.parameters.find((p) => p.name === 'health') as unknown as { schema: { enum: string[] } };
    expect(health.schema.enum).toContain('expired');
    const release = doc.paths['/api/locks/release']!.post!.requestBody as {
      content: { 'application/json': { schema: { required: string[]; properties: Record<string, unknown> } } };
    };
    const schema = release.content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['name', 'reason']));
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['source', 'version', 'owner']));
    const stream = doc.paths['/api/lock-stream']!.get!;
    expect(stream.parameters.find((p) => p.name === 'name')).toMatchObject({ in: 'query', required: true });
  });
});
