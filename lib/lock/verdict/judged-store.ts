// Every view that leaves the library carries its verdict: a store's own class reads signs, this wrapper alone turns
// them into the verdict, for every way a view goes out (a page, a view read later, an inspection, a release's result).
// The registry opens every source through it, and each store's subpath exports its class through it, so a store built
// directly judges as one opened by URL. A store that supplies no signs yields `unknown`.
import type {
  InspectOptions,
  ListOptions,
  LockStore,
  LockView,
  ReleaseRequest,
  StoreCapabilities,
  StorePage,
  StoreReleaseResult,
} from '../store';
import { withVerdict } from './verdict';

const judgeOrNull = (v: LockView | null) => (v ? withVerdict(v) : v);
const judgeAll = (views: LockView[]) => views.map((v) => withVerdict(v));

/** A store with whichever capabilities it has (store.ts: ClaimingStore, ObservingStore, FeedingStore…). */
type CapableStore = LockStore & StoreCapabilities;
/** The members a store may lack: the contract's optional members and every capability. */
type Capability = {
  [K in keyof CapableStore]-?: Record<never, never> extends Pick<CapableStore, K> ? K : never;
}[keyof CapableStore];
/**
 * Every capability, each delegated where the store has it: a capability added to store.ts and not named here fails
 * to compile (it would otherwise be dropped by every judged store, as a missing `claim` would send every replica's
 * webhook).
 */
const DELEGATED: Record<Capability, true> = {
  readOnly: true,
  claim: true,
  observe: true,
  changes: true,
  estimateTotal: true,
  memoryOnlyTrail: true,
};
const CAPABILITIES = Object.keys(DELEGATED) as Capability[];

/** The store's own views judged, its other members delegated; a capability the store lacks stays absent. */
export class JudgedStore implements LockStore {
  // TypeScript's private, not #private: a caller's Object.create(store) (the CLI's honest times) still reaches it
  private readonly inner: CapableStore;
  // declared, never defined as fields: an optional member is an own property only where the store has it
  declare readonly readOnly?: CapableStore['readOnly'];
  declare readonly claim?: CapableStore['claim'];
  declare readonly observe?: CapableStore['observe'];
  declare readonly changes?: CapableStore['changes'];
  declare readonly estimateTotal?: CapableStore['estimateTotal'];
  declare readonly memoryOnlyTrail?: CapableStore['memoryOnlyTrail'];

  constructor(store: LockStore) {
    // judging twice would fold away the signs the verdict came from: a judged store is wrapped by its own store
    const inner: CapableStore = store instanceof JudgedStore ? store.inner : store;
    this.inner = inner;
    for (const key of CAPABILITIES) {
      const value: unknown = inner[key];
      if (value === undefined) continue;
      // a method runs on its store; a property is the store's value
      const own = typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(inner) : value;
      Object.defineProperty(this, key, { value: own, enumerable: true });
    }
  }

  get source(): string {
    return this.inner.source;
  }

  get kind(): string {
    return this.inner.kind;
  }

  get versionShape(): LockStore['versionShape'] {
    return this.inner.versionShape;
  }

  /** The page judged, and the views read after it (`later`) judged before the caller sees them. */
  async list(pageToken?: string, o: ListOptions = {}): Promise<StorePage> {
    const { later } = o;
    const judgedLater: ListOptions['later'] = later && ((read) => later({ ...read, views: judgeAll(read.views) }));
    const page = await this.inner.list(pageToken, later ? { ...o, later: judgedLater } : o);
    return { ...page, locks: judgeAll(page.locks) };
  }

  async inspect(name: string, o?: InspectOptions): Promise<LockView | null> {
    return judgeOrNull(await this.inner.inspect(name, o));
  }

  async forceRelease(request: ReleaseRequest): Promise<StoreReleaseResult> {
    const r = await this.inner.forceRelease(request);
    return { ...r, current: judgeOrNull(r.current), ...(r.released ? { released: withVerdict(r.released) } : {}) };
  }

  readAudit(from: Date, to: Date, lock?: string): ReturnType<LockStore['readAudit']> {
    return this.inner.readAudit(from, to, lock);
  }

  record(fields: Record<string, string>): Promise<string> {
    return this.inner.record(fields);
  }

  now(): number {
    return this.inner.now();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A store's judged store: with each capability exactly where the store has it. */
export type Judged<S extends LockStore> = JudgedStore & Pick<S, Extract<keyof S, Capability>>;

/** The store judged; a store judged already is returned as it is. */
export const judgedStore = (store: LockStore): JudgedStore =>
  store instanceof JudgedStore ? store : new JudgedStore(store);

/**
 * A store class whose instances judge their views (`new RedisLockStore(o)` as before): what each store's subpath
 * exports, so no one outside a store's folder builds a store that hands out raw signs.
 */
export function judgedStoreClass<A extends unknown[], S extends LockStore>(
  Store: new (...args: A) => S,
): new (...args: A) => Judged<S> {
  const JudgedClass = class extends JudgedStore {
    constructor(...args: A) {
      super(new Store(...args));
    }
  };
  // its instances have the capabilities of S exactly (the constructor copies those S has)
  return JudgedClass as new (...args: A) => Judged<S>;
}
