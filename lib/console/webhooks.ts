// The webhooks page's data, shared by the route (lib/server/notify) and the page: client-safe types and the query.
import { apiFetch } from './queries';

/** `handed-over`: another replica took the series' claim over (this one's lease ran out); it delivers it now. */
export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed' | 'given-up' | 'dropped' | 'handed-over';

export interface Delivery {
  id: string;
  webhook: string;
  event: string;
  lock: string;
  at: string;
  status: DeliveryStatus;
  attempts: number;
  httpStatus?: number;
  lastError?: string;
  updatedAt: string;
}

export interface WebhookSummary {
  name: string;
  format: string;
  /** The receiver's host only: the URL's path and query may hold its token. */
  host: string;
  events: string[];
  locks: string[];
  signed: boolean;
  deliveries: Delivery[];
}

export interface WebhooksData {
  webhooks: WebhookSummary[];
  /** The last change to the file that was refused (the last good one is kept). */
  refused?: string;
}

export const webhooksQuery = () => ({
  queryKey: ['webhooks'] as const,
  queryFn: () => apiFetch<WebhooksData>('/api/webhooks'),
  refetchInterval: 5_000,
  refetchIntervalInBackground: false,
});

export const sendTestWebhook = (webhook: string) =>
  apiFetch<{ queued: true }>('/api/webhooks', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ webhook }),
  });

/**
 * A webhook's delivery rows in time order, newest event first (a replica keeps them in the order it queued them, not
 * the events': a restart's look-back or a takeover queues older events after newer ones).
 */
export function newestFirst(deliveries: Delivery[]): Delivery[] {
  return [...deliveries].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}
