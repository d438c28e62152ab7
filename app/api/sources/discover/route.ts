// POST /api/sources/discover – discovery over the console's configured connections (the Sources page): the store of
// each configured source discovered as `lockboard discover` discovers it (lib/cli/discover/connections.ts, the CLI's
// bounds per target at most), streamed as NDJSON: `{ progress }` lines after each page, then `{ report }` (or
// `{ error }`). Read-only. Operators of every lock only: it names sources of every scope. One discovery at a time
// per server (409 for a second).
import { DEFAULT_LIMITS } from '@/lib/cli/discover/budget';
import { discoverConnections } from '@/lib/cli/discover/connections';
import { redactUrl } from '@/lib/lock/support/redact-url';
import { ApiError } from '@/lib/server/api-error';
import { discoverBody } from '@/lib/server/api-schemas';
import { isEveryLock, scopeOf } from '@/lib/server/auth/access';
import { withRole } from '@/lib/server/http';
import { readJson } from '@/lib/server/request-body';
import { sources } from '@/lib/server/sources';

export const dynamic = 'force-dynamic';

let running = false;

export const POST = withRole('operator', async (req, { user }) => {
  if (!isEveryLock(scopeOf(user.access, 'operator')))
    throw new ApiError('forbidden', 'Discovery needs the operator role over every lock ("*").');
  const limits = { ...DEFAULT_LIMITS, ...(await readJson(req, discoverBody)) };
  if (running) throw new ApiError('conflict', 'A discovery is already running on this server; try again when it ends.');
  running = true;
  const urls = sources().map((s) => s.url);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      // the reader may have gone: the walk still ends within its bounds, its lines are dropped
      const send = (line: unknown) => {
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
        } catch {}
      };
      try {
        send({ report: await discoverConnections(urls, limits, process.env, (progress) => send({ progress })) });
      } catch (err) {
        send({ error: `Discovery stopped: ${redactUrl((err as Error).message)}` });
      } finally {
        running = false;
        try {
          controller.close();
        } catch {}
      }
    },
  });
  return new Response(body, { headers: { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' } });
});
