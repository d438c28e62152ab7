// The live view's change feed for Leases: one watch from the resourceVersion of a list, resumed from the last
// resourceVersion it delivered (bookmarks included) whenever the apiserver ends it. A 410 Gone (the version is older
// than etcd keeps) means changes may have been missed: the console is told to list again and the watch restarts from
// a fresh list. Node heartbeats and apiserver identities (renewed every 10 s per node) never reach the console.
import type { ChangeFeed, ChangeFeedHandlers } from '../../store';
import { notALock } from './formats';
import type { Lease, LeaseApi } from './lease';

const RETRY_MS = 1_000;

export async function startLeaseFeed(
  api: LeaseApi,
  o: { namespace: string | undefined; nameOf: (l: Lease) => string },
  handlers: ChangeFeedHandlers,
): Promise<ChangeFeed> {
  let stopped = false;
  let stopWatch: (() => void) | undefined;
  let retry: NodeJS.Timeout | undefined;
  const fresh = async () => (await api.list(o.namespace, { limit: 1 })).resourceVersion;
  let rv = await fresh();
  let expired = false;

  const start = async (): Promise<void> => {
    if (stopped) return;
    try {
      if (expired) {
        rv = await fresh();
        expired = false;
        handlers.missed('the Lease watch expired (410 Gone): listing again');
      }
      stopWatch = await api.watch(o.namespace, rv, {
        event(type, lease, status) {
          if (type === 'ERROR') {
            if (status?.code === 410) expired = true;
            return;
          }
          if (lease?.metadata.resourceVersion) rv = lease.metadata.resourceVersion;
          if (type === 'BOOKMARK' || !lease || notALock(lease)) return;
          handlers.changed([o.nameOf(lease)], Date.now());
        },
        done() {
          stopWatch = undefined;
          if (!stopped) retry = setTimeout(() => void start(), expired ? 0 : RETRY_MS);
        },
      });
    } catch {
      if (!stopped) retry = setTimeout(() => void start(), RETRY_MS);
    }
  };
  await start();
  return {
    description: `a watch on Leases${o.namespace ? ` in ${o.namespace}` : ' in every namespace'} (${api.server})`,
    async stop() {
      stopped = true;
      clearTimeout(retry);
      stopWatch?.();
    },
  };
}
