// POST /api/locks/hold – holds a lock on purpose, with a reason and an end, in its contenders' own format (the CLI's
// `lockboard hold`, lib/lock/hold.ts): operators over the lock only; the format's limits are a 400 naming the limit,
// a held lock a 409 naming its holder, nothing written. GET: the formats the lock's store can hold it in.
import { json } from '@/lib/server/api-error';
import { parseWith, readJson } from '@/lib/server/request-body';
import { withRole } from '@/lib/server/http';
import { holdBody, holdFormatsQuery } from '@/lib/server/hold';

export const dynamic = 'force-dynamic';

export const POST = withRole('operator', async (req, { board }) =>
  json(await board.hold(await readJson(req, holdBody))),
);

export const GET = withRole('operator', async (req, { board }) =>
  json(await board.holdFormats(parseWith(holdFormatsQuery, Object.fromEntries(req.nextUrl.searchParams)))),
);
