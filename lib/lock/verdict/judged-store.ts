// Every store opened through the registry hands out judged views: the verdict is set in this one place, from the signs
// each store's view supplies, for the console, the API and the CLI alike. A store that supplies none yields `unknown`.
import type { LockStore, LockView, StorePage, StoreReleaseResult } from '../store';
import { withVerdict } from './verdict';

const judgeOrNull = (v: LockView | null) => (v ? withVerdict(v) : v);

function judgeRelease(r: StoreReleaseResult): StoreReleaseResult {
  return { ...r, current: judgeOrNull(r.current), ...(r.released ? { released: withVerdict(r.released) } : {}) };
}

export function judgedStore(store: LockStore): LockStore {
  const judged: Partial<LockStore> = {
    list: async (token, o) => {
      const page: StorePage = await store.list(token, o);
      return { ...page, locks: page.locks.map(withVerdict) };
    },
    inspect: async (name, o) => judgeOrNull(await store.inspect(name, o)),
    forceRelease: async (request) => judgeRelease(await store.forceRelease(request)),
  };
  return new Proxy(store, {
    get(target, key) {
      if (key in judged) return judged[key as keyof LockStore];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
