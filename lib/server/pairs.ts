// One logical lock kept in two stores (Terraform's S3 backend with use_lockfile and dynamodb_table during a migration:
// the same LockInfo as an S3 .tflock and a DynamoDB item): found across the configured sources by the stores' pairKey,
// shown together, and released together, each with its own store's precondition.
import 'server-only';
import type { LockView } from '@/lib/lock/store';
import { countForceRelease } from './metrics';
import { cachedPage, storeFor } from './stores';
import { sources, type Source } from './sources';

export interface Partner {
  source: Source;
  lock: LockView;
}

/**
 * The same lock in the other configured sources (their cached listings). A source that cannot be read now is passed
 * over: its half, if any, is not shown (and not released), and the lock asked about is answered all the same.
 */
export async function partnersOf(view: Pick<LockView, 'pairKey' | 'name'>, except: Source): Promise<Partner[]> {
  if (!view.pairKey) return [];
  const found: Partner[] = [];
  for (const source of sources()) {
    if (source.id === except.id) continue;
    let token: string | undefined;
    do {
      const page = await cachedPage(source, token).catch(() => null);
      for (const lock of page?.locks ?? []) if (lock.pairKey === view.pairKey) found.push({ source, lock });
      token = page?.nextPageToken;
    } while (token);
  }
  return found;
}

/** After one half was released: the other halves at the versions listed, each by its own store's rule. */
export async function releasePartners(
  released: LockView,
  except: Source,
  operator: string,
  reason: string,
): Promise<{ source: string; name: string; outcome: string }[]> {
  const out = [];
  for (const { source, lock } of await partnersOf(released, except)) {
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
