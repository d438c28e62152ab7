// Redis's change feed for the console's live view: keyspace notifications, only where the operator already enabled
// them (notify-keyspace-events with K and the generic, string, hash and expired classes). Lockboard never changes the
// server's configuration; without them, or on a cluster (events are per node), there is no feed and the console
// SCANs at the store's pace. A reconnect may have lost events (Redis Pub/Sub keeps none): the watcher lists again.
import type { ChangeFeed, ChangeFeedHandlers } from '../../store';
import type { RedisConn } from './conn';

interface SubscriberLike {
  on(event: string, fn: (...args: unknown[]) => void): unknown;
  connect(): Promise<unknown>;
  pSubscribe(pattern: string, listener: (message: string, channel: string) => void): Promise<void>;
  quit?(): Promise<unknown>;
  disconnect?(): Promise<unknown>;
  isReady?: boolean;
  destroy?(): void;
}

/** Whether notify-keyspace-events reports what a lock's life does: set, hset, del, expire and expiry by the server. */
export function coversLocks(flags: string): boolean {
  if (!flags.includes('K')) return false;
  return flags.includes('A') || ['g', '$', 'h', 'x'].every((f) => flags.includes(f));
}

export async function startRedisFeed(
  conn: RedisConn,
  o: { db: number; match: string; ignore: string },
  handlers: ChangeFeedHandlers,
): Promise<ChangeFeed | null> {
  const client = conn.client as unknown as { duplicate?: () => SubscriberLike };
  if (conn.isCluster || typeof client.duplicate !== 'function') return null;
  // a managed Redis may refuse CONFIG: no feed then. RESP2 answers [name, value], RESP3 a map.
  const reply = await conn.cmd(undefined, ['CONFIG', 'GET', 'notify-keyspace-events']).catch(() => null);
  const value = Array.isArray(reply) ? reply[1] : (reply as Record<string, unknown> | null)?.['notify-keyspace-events'];
  const flags = typeof value === 'string' ? value : '';
  if (!coversLocks(flags)) return null;
  const sub = client.duplicate();
  let lost = false;
  sub.on('error', () => {}); // reconnects by itself; the gap is reported on ready
  sub.on('reconnecting', () => (lost = true));
  sub.on('ready', () => {
    if (!lost) return;
    lost = false;
    handlers.missed('the keyspace subscription reconnected');
  });
  await sub.connect();
  const prefix = `__keyspace@${o.db}__:`;
  await sub.pSubscribe(`${prefix}${o.match}`, (_event, channel) => {
    const key = channel.slice(prefix.length);
    if (key !== o.ignore) handlers.changed([key], Date.now());
  });
  return {
    description: `keyspace notifications (notify-keyspace-events ${flags})`,
    async stop() {
      // QUIT waits for the server: while the subscription is down (reconnecting) it would wait forever
      if (sub.isReady === false && sub.destroy) return sub.destroy();
      await (sub.quit?.() ?? sub.disconnect?.())?.catch(() => undefined);
    },
  };
}
