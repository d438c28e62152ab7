// etcd's change feed for the console's live view: one watch on the source's prefix. It starts after the revision of
// a first read and keeps the last revision it saw: after a reconnect etcd3 resumes the watch from there, and after a
// watch error this feed watches again from there, so no change is lost. A compacted revision cannot be resumed: it
// is reported as missed (the console lists again) and the watch starts again from now.
import type { ChangeFeed, ChangeFeedHandlers } from '../../store';
import { AUDIT_PREFIX } from './audit';
import type { Etcd3Client } from './client';
import { classifyKey } from './formats';

type Watcher = Awaited<ReturnType<ReturnType<Etcd3Client['watch']>['create']>>;
interface RawKv {
  key: Buffer;
  value: Buffer;
  create_revision: string;
  mod_revision: string;
  lease: string;
}

/**
 * The name a changed key concerns: the lock it holds or queues for (a deleted key's lease is its previous one), never
 * a waiter's own key (which is no row of its own), or the key itself where it is no lock's.
 */
function namesOf(kv: RawKv, prev?: RawKv): string[] {
  const key = kv.key.toString('utf8');
  const at = prev ?? kv;
  const lock = classifyKey({
    key,
    value: at.value,
    createRevision: at.create_revision,
    modRevision: kv.mod_revision,
    lease: at.lease || '0',
  })?.name;
  return [lock ?? key];
}

export async function startEtcdFeed(
  client: Etcd3Client,
  o: { prefix: string; source: string; fromRevision?: string },
  handlers: ChangeFeedHandlers,
): Promise<ChangeFeed | null> {
  let stopped = false;
  let watcher: Watcher | undefined;
  let next = o.fromRevision;
  const watch = async (): Promise<void> => {
    next ??= String(BigInt((await client.getAll().prefix(o.prefix).limit(1).exec()).header.revision) + 1n);
    const w = await client.watch().prefix(o.prefix).startRevision(next).withPreviousKV().create();
    watcher = w;
    const onEvent = (kv: RawKv, prev?: RawKv) => {
      next = String(BigInt(kv.mod_revision) + 1n);
      if (kv.key.toString('utf8').startsWith(AUDIT_PREFIX)) return;
      handlers.changed(namesOf(kv, prev), Date.now());
    };
    w.on('put', onEvent);
    w.on('delete', onEvent);
    w.on('error', () => {
      if (stopped) return;
      void w.cancel().catch(() => undefined);
      setTimeout(() => void (stopped ? undefined : again().catch((e: Error) => handlers.missed(e.message))), 200);
    });
  };
  // etcd 3.4 cancels a watch on a compacted revision with no reason given: a read at that revision says so
  const again = async (): Promise<void> => {
    const compacted = await client
      .getAll()
      .prefix(o.prefix)
      .revision(next!)
      .limit(1)
      .exec()
      .then(
        () => null,
        (err: Error) => (/compacted/i.test(err.message) ? err.message : null),
      );
    if (compacted) {
      next = undefined;
      handlers.missed(`etcd compacted the revisions this watch needed (${compacted})`);
    }
    await watch();
  };
  await watch();
  return {
    description: `etcd watch on ${o.source}`,
    async stop() {
      stopped = true;
      await watcher?.cancel().catch(() => undefined);
    },
  };
}
