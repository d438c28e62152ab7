// Each webhook's recent deliveries on this replica, for the operator page: the last few per webhook, newest first,
// each with its event, status, attempts and last error (never the URL's path or the secret).

import type { Delivery } from '@/lib/console/webhooks';

export type { DeliveryStatus } from '@/lib/console/webhooks';

const KEEP = 50;

export class DeliveryLog {
  private readonly byHook = new Map<string, Delivery[]>();

  /** Adds or updates the delivery `id` of `webhook`. */
  put(d: Delivery): void {
    const list = this.byHook.get(d.webhook) ?? [];
    const i = list.findIndex((x) => x.id === d.id);
    if (i >= 0) list.splice(i, 1);
    list.unshift(d);
    if (list.length > KEEP) list.length = KEEP;
    this.byHook.set(d.webhook, list);
  }

  recent(webhook: string): Delivery[] {
    return [...(this.byHook.get(webhook) ?? [])];
  }
}
