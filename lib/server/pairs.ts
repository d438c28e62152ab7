// One logical lock kept in two stores (Terraform's S3 backend with use_lockfile and dynamodb_table during a migration:
// the same LockInfo as an S3 .tflock and a DynamoDB item): found across the configured sources by the stores' pairKey,
// shown together, and released together, each with its own store's precondition.
import 'server-only';
import type { LockView } from '@/lib/lock/store';
import { countForceRelease } from './metrics/metrics';
import { storeFor } from './stores';
import { sources, type Source } from './sources';
import { watcherFor } from './live/watch';

interface Partner {
  source: Source;
  lock: LockView;
}

/** How long a lock page waits for another source's first page before answering without its half. */
const PARTNER_WAIT_MS = 1_500;

/**
 * The same lock in the other configured sources: found in their indexes by the pair key (which names the holder's
 * lock, Terraform's LockInfo ID, so a successor's lock is never a partner), then read again from its store, so its
 * half is shown, and released, at the version it has now, and only while it still carries the same pair key. A
 * source that cannot be read now is passed over: its half, if any, is not shown (and not released).
 */
export async function partnersOf(view: Pick<LockView, 'pairKey' | 'name'>, except: Source): Promise<Partner[]> {
  const key = view.pairKey;
  if (!key) return [];
  const found: Partner[] = [];
  for (const source of sources()) {
    if (source.id === except.id) continue;
    const watcher = watcherFor(source);
    await watcher.ready(PARTNER_WAIT_MS);
    for (const name of watcher.index.pairedWith(key)) {
      const store = await storeFor(source).catch(() => undefined);
      const lock = await store?.inspect(name).catch(() => null);
      if (lock?.pairKey === key) found.push({ source, lock });
    }
  }
  return found;
}

/** After one half was released: the other halves at the versions listed, each by its own store's rule. */
export async function releasePartners(
  released: LockView,
  except: Source,
  operator: string,
  reason: string,
  allowed: (source: Source, name: string) => boolean = () => true,
): Promise<{ source: string; name: string; outcome: string }[]> {
  const out = [];
  for (const { source, lock } of await partnersOf(released, except)) {
    if (!allowed(source, lock.name)) {
      out.push({ source: source.id, name: lock.name, outcome: 'not released: outside your grants' });
      continue;
    }
    const store = await storeFor(source);
    const r = await store
      .forceRelease({
        name: lock.name,
        version: lock.version,
        reason: `${reason} (with its pair ${except.id} ${released.name})`,
        operator,
      })
      .catch((err: unknown) => ({ outcome: `not released: ${(err as Error).message}` }));
    if (typeof r.outcome === 'string' && !r.outcome.startsWith('not released')) countForceRelease(r.outcome);
    out.push({ source: source.id, name: lock.name, outcome: r.outcome });
  }
  return out;
}
