// GET /api/openapi.json – the OpenAPI 3.1 document of this API, generated from the routes' zod schemas; no session
import { json } from '@/lib/server/api-error';
import { openApiDocument } from '@/lib/server/openapi/document';

export const dynamic = 'force-dynamic';

export function GET(): Response {
  return json(openApiDocument());
}
