// When a webhook joined, per trail: it hears of that trail's records from then on, never of those before it (a new
// webhook would otherwise get the first read's look-back at once: up to ten minutes of old events). The first sight is
// a create-only marker beside the trail (LockStore.claim), so a console restarted with a webhook it had before still
// tells it of the restart's gap; a store without markers claims nothing, and the gap is told as before.
import { canClaim, type LockStore } from '@/lib/lock/store';
import { stableId } from './event';

/** A record up to this much older than the first sight is still told (a writer's clock a little slow). */
const JOIN_SLACK_MS = 60_000;

export class HookSince {
  private readonly since = new Map<string, Promise<number>>();

  /** The time (ms) from which `hook` hears of the records of `trail` (-Infinity: all of them). */
  of(store: LockStore, trail: string, hook: { name: string; url: string }): Promise<number> {
    const key = `${trail}\u0000${hook.name}\u0000${hook.url}`;
    let since = this.since.get(key);
    if (!since) {
      const at = Date.now() - JOIN_SLACK_MS;
      const marker = `hook-joined-${stableId([hook.name, hook.url])}`;
      since = canClaim(store)
        ? store.claim(marker).then(
            (first) => (first ? at : -Infinity),
            () => -Infinity,
          )
        : Promise.resolve(-Infinity);
      this.since.set(key, since);
    }
    return since;
  }
}
