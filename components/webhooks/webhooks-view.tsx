'use client';

import { useQuery } from '@tanstack/react-query';
import { webhooksQuery } from '@/lib/console/webhooks';
import { WebhookCard } from './webhook-card';

/** Each webhook of LOCKBOARD_WEBHOOKS_FILE with its recent deliveries on this replica, and a test button. */
export function WebhooksView() {
  const query = useQuery(webhooksQuery());
  const data = query.data;
  if (query.error) return <p role="alert">{query.error.message}</p>;
  if (!data) return <p>Loading…</p>;
  return (
    <section className="space-y-6">
      {data.refused && (
        <p role="alert" className="rounded-md bg-amber-50 p-3 text-sm whitespace-pre-wrap dark:bg-amber-950">
          The last change to the webhooks file was refused; the last good one is in use. {data.refused}
        </p>
      )}
      {data.webhooks.length === 0 && (
        <p className="text-sm">
          No webhooks: set <code>LOCKBOARD_WEBHOOKS_FILE</code> to a JSON or YAML file (see the README, “Webhooks”).
        </p>
      )}
      {data.webhooks.map((w) => (
        <WebhookCard key={w.name} webhook={w} />
      ))}
      <p className="text-xs text-zinc-500">Deliveries shown are this replica’s; each event is sent by one replica.</p>
    </section>
  );
}
