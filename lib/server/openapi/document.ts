// The OpenAPI 3.1 document of the console's API (GET /api/openapi.json), generated from the routes' zod schemas.
import { z } from 'zod';
import { ROUTES, type RouteDoc } from './routes';

const json = (schema: z.ZodType): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) };
  delete out.$schema;
  return out;
};

const errorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

function parameters(r: RouteDoc) {
  const path = Object.entries(r.pathParams ?? {}).map(([name, description]) => ({
    name,
    in: 'path',
    required: true,
    description,
    schema: { type: 'string' },
  }));
  const query = Object.entries(r.query?.shape ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: !(schema as z.ZodType).safeParse(undefined).success,
    schema: json(schema as z.ZodType),
  }));
  return [...path, ...query];
}

function security(r: RouteDoc) {
  if (r.access === 'viewer' || r.access === 'releaser' || r.access === 'operator')
    return [{ session: [] }, { bearer: [] }];
  if (r.access === 'metrics' || r.access === 'push') return [{ bearer: [] }];
  return [];
}

function operation(r: RouteDoc) {
  const responses = Object.fromEntries(
    Object.entries(r.answers).map(([status, description]) => [
      status,
      {
        description,
        ...(status === '200'
          ? { content: { [r.produces ?? 'application/json']: { schema: {} } } }
          : Number(status) >= 400
            ? { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }
            : {}),
      },
    ]),
  );
  return {
    summary: r.summary,
    'x-lockboard-role': r.access,
    parameters: parameters(r),
    ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: json(r.body) } } } } : {}),
    security: security(r),
    responses,
  };
}

export function openApiDocument(version = '0.1.0') {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) (paths[r.path] ??= {})[r.method] = operation(r);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lockboard console API',
      version,
      description:
        "Every /api route a role allows, by session cookie or Authorization: Bearer <API token> (LOCKBOARD_ACCESS_FILE tokens). Locks are scoped to the caller's grants on every route.",
    },
    paths,
    components: {
      schemas: { Error: json(errorBody) },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'next-auth.session-token' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
  };
}
