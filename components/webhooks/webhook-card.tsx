'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { newestFirst, sendTestWebhook, type WebhookSummary } from '@/lib/console/webhooks';
import { formatTime } from '@/lib/text/format';

export function WebhookCard({ webhook: w }: { webhook: WebhookSummary }) {
  const client = useQueryClient();
  const test = useMutation({
    mutationFn: () => sendTestWebhook(w.name),
    onSettled: () => client.invalidateQueries({ queryKey: ['webhooks'] }),
  });
  return (
    <article aria-label={`Webhook ${w.name}`} className="rounded-md border border-zinc-200 p-4 dark:border-zinc-800">
      <header className="mb-2 flex flex-wrap items-center gap-3">
        <h2 className="font-semibold">{w.name}</h2>
        <span className="text-sm text-zinc-500">
          {w.format} to {w.host} · {w.signed ? 'signed' : 'unsigned'} · {w.events.join(', ')} · {w.locks.join(', ')}
        </span>
        <Button className="ml-auto" disabled={test.isPending} onClick={() => test.mutate()}>
          {test.isPending ? 'Sending…' : 'Send test'}
        </Button>
      </header>
      {test.error && <p role="alert">{test.error.message}</p>}
      <table className="w-full text-left text-sm">
        <thead>
          <tr>
            <th>Event</th>
            <th>Lock</th>
            <th>At</th>
            <th>Status</th>
            <th>Attempts</th>
            <th>Last error</th>
          </tr>
        </thead>
        <tbody>
          {newestFirst(w.deliveries).map((d) => (
            <tr key={d.id}>
              <td>{d.event}</td>
              <td className="break-all">{d.lock}</td>
              <td>{formatTime(d.at)}</td>
              <td>
                {d.status}
                {d.httpStatus !== undefined ? ` (${d.httpStatus})` : ''}
              </td>
              <td>{d.attempts}</td>
              <td>{d.lastError ?? ''}</td>
            </tr>
          ))}
          {w.deliveries.length === 0 && (
            <tr>
              <td colSpan={6} className="text-zinc-500">
                No deliveries from this replica yet.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </article>
  );
}
