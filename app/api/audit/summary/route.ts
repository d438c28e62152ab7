// GET /api/audit/summary – per-hour counts by kind, top locks, hold times, takeovers, failures, force-releases
import { summarise } from '@/lib/churn';
import { parseWindow, readEvents } from '@/lib/server/audit';
import { json, withRole } from '@/lib/server/http';

export const GET = withRole('viewer', async (req) => {
  const window = parseWindow(req.nextUrl.searchParams);
  const events = await readEvents(window);
  return json(summarise(events, window.from, window.to));
});
