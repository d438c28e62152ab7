// etcd's change feed for the console's live view: one watch on the source's prefix, from the revision of a first
// read. etcd3 resumes the watch from its last revision after a reconnect, so nothing is missed then; a compacted
// revision cancels the watch: reported as missed (the console lists again) and watched again from now.
import type { ChangeFeed, ChangeFeedHandlers } from '../../store';
import { AUDIT_PREFIX } from './audit';
import { classifyKey, type EtcdKv } from './formats';
import type { Etcd3Client } from './client';

type Watcher = Awaited<ReturnType<ReturnType<Etcd3Client['watch']>['create']>>;

/** The lock a changed key belongs to (a queue entry's lock, or the key itself). */
export function lockNameOf(kv: EtcdKv): string {
  return classifyKey(kv)?.name ?? kv.key;
}

export async function startEtcdFeed(
  client: Etcd3Client,
  o: { prefix: string; source: string },
  handlers: ChangeFeedHandlers,
): Promise<ChangeFeed | null> {
  let stopped = false;
  let watcher: Watcher | undefined;
  const start = async (): Promise<void> => {
    const rev = (await client.getAll().prefix(o.prefix).limit(1).exec()).header.revision;
    const w = await client
      .watch()
      .prefix(o.prefix)
      .startRevision(String(BigInt(rev) + 1n))
      .withPreviousKV()
      .create();
    watcher = w;
    const onEvent = (
      kv: { key: Buffer; value: Buffer; create_revision: string; mod_revision: string; lease: string },
      prev?: typeof kv,
    ) => {
      const key = kv.key.toString('utf8');
      if (key.startsWith(AUDIT_PREFIX)) return;
      const source = prev ?? kv; // a delete carries no lease: the previous KeyValue has it
      const names = new Set([
        key,
        lockNameOf({
          key,
          value: source.value,
          createRevision: source.create_revision,
          modRevision: kv.mod_revision,
          lease: source.lease || '0',
        }),
      ]);
      handlers.changed([...names], Date.now());
    };
    w.on('put', onEvent);
    w.on('delete', onEvent);
    w.on('error', (err) => {
      if (stopped) return;
      handlers.missed(
        /compact/i.test(err.message) ? `etcd compacted the watched revision: ${err.message}` : err.message,
      );
      void w.cancel().catch(() => undefined);
      setTimeout(() => void (stopped ? undefined : start().catch((e: Error) => handlers.missed(e.message))), 500);
    });
  };
  await start();
  return {
    description: `etcd watch on ${o.source}`,
    async stop() {
      stopped = true;
      await watcher?.cancel().catch(() => undefined);
    },
  };
}
