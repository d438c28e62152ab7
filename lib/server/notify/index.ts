// The console's webhooks: the file followed, one notifier per process (started at start-up), and what the
// operator page reads and does (each webhook's recent deliveries, a test message).
import 'server-only';
import { processWide } from '../process/process-wide';
import { onStop } from '../process/shutdown';
import { sources } from '../sources';
import { env } from '../env';
import { openWebhooksFile, type WebhooksFile } from './config-file';
import type { WebhooksData } from '@/lib/console/webhooks';
import { stableId, type NotifyEvent } from './event';
import { GoneFeed } from './gone-feed';
import { Notifier } from './notifier';

const state = processWide('webhooks', () => ({}) as { file?: WebhooksFile; notifier?: Notifier });

/** Start-up: the file read (a malformed one throws WebhooksConfigError, naming its line) and the notifier started. */
export function startWebhooks(): void {
  if (state.notifier) return;
  const e = env();
  const file = openWebhooksFile(e.LOCKBOARD_WEBHOOKS_FILE, process.env);
  const notifier = new Notifier({ sources, config: () => file.current(), linkBase: e.NEXTAUTH_URL });
  Object.assign(state, { file, notifier });
  if (!e.LOCKBOARD_WEBHOOKS_FILE) return;
  notifier.start();
  const gone = new GoneFeed(sources, notifier.holders);
  const wantsGone = () => file.current().webhooks.some((h) => h.events.includes('holder-gone'));
  gone.sync(wantsGone());
  const following = setInterval(() => gone.sync(wantsGone()), 10_000); // the file may have changed
  following.unref();
  onStop(() => {
    clearInterval(following);
    gone.sync(false);
    notifier.stop();
    file.stop();
  });
}

export function webhookSummaries(): WebhooksData {
  const { file, notifier } = state;
  const webhooks = (file?.current().webhooks ?? []).map((h) => ({
    name: h.name,
    format: h.format,
    host: new URL(h.url).host,
    events: h.events,
    locks: h.locks ?? ['*'],
    signed: Boolean(h.secret),
    deliveries: notifier?.deliveries.recent(h.name) ?? [],
  }));
  const refused = file?.refused();
  return refused ? { webhooks, refused } : { webhooks };
}

/** Queues a test message to the webhook `name` (no claim: each press is its own message); false when unknown. */
export function sendTestMessage(name: string, operator: string): boolean {
  const hook = state.file?.current().webhooks.find((h) => h.name === name);
  if (!hook || !state.notifier) return false;
  const at = new Date().toISOString();
  const event: NotifyEvent = {
    id: stableId(['test', name, at, operator]),
    event: 'test',
    at,
    lock: { address: 'lockboard://test', source: 'lockboard://test', name: 'test', store: 'test', format: null },
    actor: operator,
    reason: 'Send test, from the webhooks page',
    outcome: null,
    verdict: null,
    sentence: null,
    link: null,
    verified: null,
  };
  state.notifier.queue.push(name, event);
  return true;
}
