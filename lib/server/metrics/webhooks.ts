// Webhook deliveries of this replica, by webhook and final outcome (delivered, failed, given-up, dropped).
import 'server-only';
import { Counter } from 'prom-client';
import { processWide } from '../process/process-wide';
import { metrics } from './metrics';

const deliveries = processWide(
  'webhookDeliveries',
  () =>
    new Counter({
      name: 'lockboard_webhook_deliveries_total',
      help: 'Webhook delivery series ended on this replica, by webhook and outcome (delivered, failed, given-up, dropped).',
      labelNames: ['webhook', 'outcome'] as const,
      registers: [metrics.registry],
    }),
);

export function countWebhookDelivery(webhook: string, outcome: string): void {
  deliveries.inc({ webhook, outcome });
}
