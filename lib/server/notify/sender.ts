// A job's one attempt with its webhook's current settings (rendered, signed), and what each attempt leaves: the
// replica's delivery log, the deliveries metric and, for a series that ends badly, one log line naming the host only.
import { countWebhookDelivery } from '../metrics/webhooks';
import { postOnce, type AttemptOptions, type AttemptResult } from './attempt';
import type { Webhook } from './config';
import type { DeliveryLog, DeliveryStatus } from './deliveries';
import type { DeliveryJob } from './queue';
import { plural } from '@/lib/text/plural';
import { renderBody, signBody } from './render';

export function sendJob(hook: Webhook | undefined, job: DeliveryJob, o: AttemptOptions): Promise<AttemptResult> {
  if (!hook) return Promise.resolve({ status: 410, error: 'the webhook was removed from the file' });
  const body = renderBody(hook.format, job.event);
  const headers: Record<string, string> = {
    'user-agent': 'Lockboard-Webhooks/1',
    'x-lockboard-event': job.event.event,
    'x-lockboard-delivery': job.event.id,
    ...(hook.secret ? { 'x-lockboard-signature': signBody(hook.secret, body) } : {}),
  };
  return postOnce(hook.url, body, headers, o);
}

export function reportJob(
  log: DeliveryLog,
  job: DeliveryJob,
  state: DeliveryStatus,
  host: string | undefined,
  warn: (line: string) => void,
): void {
  const now = new Date().toISOString();
  log.put({
    id: job.event.id,
    webhook: job.webhook,
    event: job.event.event,
    lock: job.event.lock.address,
    at: job.event.at,
    status: state,
    attempts: job.attempts,
    ...(job.lastStatus !== undefined ? { httpStatus: job.lastStatus } : {}),
    ...(job.lastError ? { lastError: job.lastError } : {}),
    updatedAt: now,
  });
  if (state === 'pending' || state === 'retrying') return;
  countWebhookDelivery(job.webhook, state);
  if (state !== 'delivered') {
    const why = job.lastError ? `: ${job.lastError}` : '';
    warn(
      `[lockboard] webhook ${job.webhook} (${host ?? 'removed'}) ${state} ${job.event.event} of ${job.event.lock.address} after ${plural('attempt', job.attempts)}${why}`,
    );
  }
}
