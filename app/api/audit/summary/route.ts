// GET /api/audit/summary – per-hour counts by kind, top locks, hold times, takeovers, failures, force-releases, and
// the trails that could not be read (`unreachable`: their sources, the store's words, the last good read) and those
// kept in memory only (`memoryOnly`: lost on a restart of their server, in the store's words)
import { summarise } from '@/lib/console/churn/summary';
import { parseWindow } from '@/lib/server/audit/events';
import { json } from '@/lib/server/api-error';
import { withRole } from '@/lib/server/http';

export const GET = withRole('viewer', async (req, { board }) => {
  const window = parseWindow(req.nextUrl.searchParams);
  const { events, unreachable, memoryOnly } = await board.events(window);
  return json({ ...summarise(events, window.from, window.to), unreachable, memoryOnly });
});
