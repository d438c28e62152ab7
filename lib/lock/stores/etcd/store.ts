// Locks in etcd (docs/stores.md): listed with one range read of the prefix (keys sorted by create revision) and one
// LeaseTimeToLive per holder; force-released by one transaction pinned to the holder key's create revision, on the
// holder only (waiters are shown, never released); audited under lockboard/audit/ before and after.
import type { AuditRecord } from '../../audit/record';
import { mapLimit } from '../../support/map-limit';
import { assertVersion, notALockView, recordedRelease, type LockStore, type LockView } from '../../store';
import type { ChangeFeed, ChangeFeedHandlers, ReleaseRequest, StorePage, StoreReleaseResult } from '../../store';
import { AUDIT_PREFIX, readEtcdEvents, recordEtcdEvent } from './audit';
import type { Etcd3Client } from './client';
import type { ClaimLeasing } from '../../claim-lease';
import { EtcdClaims } from './claim';
import { readKeysOnly, readOneBounded, withBoundedValues } from './bounded-read';
import { startEtcdFeed } from './feed';
import {
  classifyKey,
  leaseHex,
  OVERSIZE_LABEL,
  readLocks,
  sortByCreate,
  type EtcdKv,
  type EtcdReading,
} from './formats';
import { ETCD_VERSION } from './version';
import { LeaseWatch, leaseSign } from './lease-signs';
import { etcdView, type LeaseInfo, type ViewContext } from './view';
import { etcdTerms } from './words';
import { waiterView } from './waiter';

export interface EtcdStoreOptions {
  client: Etcd3Client;
  /** The client values are read through, its replies capped (bounded-read.ts); the main client where not given. */
  values?: Etcd3Client;
  /** Keys under the source start with this ("" for every key). */
  prefix: string;
  /** The source as shown, without credentials. */
  source: string;
  longHeldMs?: number;
  close?: () => Promise<void> | void;
}

type Located =
  | { kind: 'lock'; reading: EtcdReading }
  | { kind: 'waiter'; reading: EtcdReading; waiter: EtcdKv }
  | { kind: 'other'; kv: EtcdKv };

export class EtcdLockStore implements LockStore {
  readonly kind = 'etcd';
  readonly versionShape = ETCD_VERSION;
  readonly source: string;
  private readonly firstSeen = new Map<string, number>();
  private readonly leases = new LeaseWatch();

  private readonly values: Etcd3Client;
  private readonly claims: EtcdClaims;

  constructor(private readonly o: EtcdStoreOptions) {
    this.source = o.source;
    this.values = o.values ?? o.client;
    this.claims = new EtcdClaims(o.client);
  }

  /** A create-only key beside the trail, on a lease of two days, or its lease (claim.ts): see LockStore. */
  claim(key: string, lease?: ClaimLeasing): Promise<boolean> {
    if (lease) return lease(this.claims);
    return this.claims.claim(key);
  }

  /** etcd keeps no wall-clock time: the console's clock, which "seen since" is also on. */
  now(): number {
    return Date.now();
  }

  async close(): Promise<void> {
    await this.o.close?.();
  }

  /** The keys under `prefix`, oldest first; the audit trail's keys are left out by the server, never read. */
  private async range(prefix: string): Promise<EtcdKv[]> {
    const { Range } = await import('etcd3');
    const all = Range.prefix(prefix);
    const audit = Range.prefix(AUDIT_PREFIX);
    const parts = AUDIT_PREFIX.startsWith(prefix)
      ? [new Range(all.start, audit.start), new Range(audit.end, all.end)]
      : [all];
    const keys = await Promise.all(parts.map((r) => readKeysOnly(this.o.client, r.start, r.end)));
    return sortByCreate(await withBoundedValues(this.values, keys.flat()));
  }

  /**
   * The lease of a key: TTL remaining and granted, and every key a revoke would drop (`keys: null` where this role
   * may not read them all: etcd ≥ 3.4.26 / 3.5.8 refuse `keys: true` then); null where the key has no lease.
   */
  private async lease(id: string): Promise<LeaseInfo | null> {
    if (id === '0') return null;
    const ttlOf = (keys: boolean) => this.o.client.leaseClient.leaseTimeToLive({ ID: id, keys });
    const r = await ttlOf(true).catch(async (err: Error) => {
      if (!/permission denied/i.test(err.message)) throw err;
      return { ...(await ttlOf(false)), keys: null };
    });
    const ttl = Number(r.TTL);
    const keys = r.keys ? r.keys.map((k) => k.toString('utf8')) : null;
    return ttl === -1
      ? { ttl: 0, granted: Number(r.grantedTTL), keys: [] }
      : { ttl, granted: Number(r.grantedTTL), keys };
  }

  private context(): ViewContext {
    return { source: this.source, now: this.now(), firstSeen: this.firstSeen, longHeldMs: this.o.longHeldMs };
  }

  /** The view with its lease's sign; `lease` already read (a listing reads each distinct lease once). */
  private view(r: EtcdReading, lease: LeaseInfo | null): LockView {
    const c = this.context();
    const id = r.holder.lease;
    const track = lease && this.leases.observe(id, lease, c.now);
    return { ...etcdView(r, lease, c), signs: [leaseSign(leaseHex(id), lease, track ?? undefined, c.now)] };
  }

  async list(): Promise<StorePage> {
    const kvs = await this.range(this.o.prefix);
    const { locks, skipped } = readLocks(kvs);
    // one LeaseTimeToLive per distinct lease per pass (a session's lease often holds several locks)
    const ids = [...new Set(locks.map((r) => r.holder.lease))];
    const read = await mapLimit(ids, 8, async (id) => [id, await this.lease(id)] as const);
    const leases = new Map(read);
    this.leases.forgetExcept(new Set(ids));
    const views = locks.map((r) => this.view(r, leases.get(r.holder.lease) ?? null));
    const live = new Set(kvs.map((kv) => `${kv.key}\u0000${kv.createRevision}`));
    for (const k of this.firstSeen.keys()) if (!live.has(k)) this.firstSeen.delete(k);
    return {
      locks: views.sort((a, b) => a.name.localeCompare(b.name)),
      skipped,
      serverTime: new Date(this.now()).toISOString(),
    };
  }

  /** `name` as a lock (its queue under `name/`, or a single key), a waiter's or holder's own key, or another key. */
  private async locate(name: string): Promise<Located | null> {
    const queue = readLocks((await this.range(`${name}/`)).filter((kv) => classifyKey(kv)?.name === name));
    const own = queue.locks.find((r) => r.name === name);
    if (own) return { kind: 'lock', reading: own };
    const kv = await readOneBounded(this.values, name);
    if (!kv) return null;
    const c = classifyKey(kv);
    if (c && !c.queued) return { kind: 'lock', reading: readLocks([kv]).locks[0]! };
    if (c) {
      const group = readLocks((await this.range(`${c.name}/`)).filter((k) => classifyKey(k)?.name === c.name));
      const reading = group.locks[0];
      if (reading && reading.holder.key === kv.key) return { kind: 'lock', reading };
      if (reading) return { kind: 'waiter', reading, waiter: kv };
    }
    return { kind: 'other', kv };
  }

  async inspect(name: string): Promise<LockView | null> {
    const at = await this.locate(name);
    if (!at) return null;
    if (at.kind === 'lock') return this.view(at.reading, await this.lease(at.reading.holder.lease));
    if (at.kind === 'waiter')
      return waiterView(at.reading, at.waiter, await this.lease(at.waiter.lease), this.context());
    return notALockView({
      kind: this.kind,
      source: this.source,
      name,
      what: `An etcd key ${sizeOf(at.kv)}${at.kv.lease === '0' ? '' : ' on a lease'}`,
      nowMs: this.now(),
      terms: etcdTerms('etcd-mutex', at.kv.lease !== '0'),
      ...(at.kv.oversized ? {} : { size: at.kv.value.length }),
    });
  }

  /** How many keys a listing walks: one count-only range of the prefix (no keys or values sent). */
  estimateTotal(): Promise<number> {
    return this.o.client.getAll().prefix(this.o.prefix).count();
  }

  changes(handlers: ChangeFeedHandlers): Promise<ChangeFeed | null> {
    return startEtcdFeed(this.o.client, { prefix: this.o.prefix, source: this.source }, handlers);
  }

  record(fields: Record<string, string>): Promise<string> {
    return recordEtcdEvent(this.o.client, fields);
  }

  readAudit(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    return readEtcdEvents(this.o.client, from, to, lock, this.values);
  }

  /** The holder's key deleted in one Txn pinned to its create revision; a waiter is refused and kept. */
  async forceRelease(o: ReleaseRequest): Promise<StoreReleaseResult> {
    assertVersion(this, o.version);
    const at = await this.locate(o.name);
    if (!at) return { outcome: 'gone', current: null, audit: [] };
    if (at.kind !== 'lock') return { outcome: 'not-a-lock', current: (await this.inspect(o.name))!, audit: [] };
    const key = at.reading.holder.key;
    const fields = { version: o.version, operator: o.operator, reason: o.reason, format: at.reading.format, key };
    const trail = { lock: o.name, trail: AUDIT_PREFIX, fields, record: (f: Record<string, string>) => this.record(f) };
    const before = etcdView(at.reading, null, this.context()); // as released (no extra request for its lease)
    const result = await recordedRelease(trail, async () => {
      const txn = await this.o.client.if(key, 'Create', '==', o.version).then(this.o.client.delete().key(key)).commit();
      if (txn.succeeded) return { outcome: 'released', current: await this.inspect(o.name) };
      const current = await this.inspect(o.name);
      return { outcome: current?.releasable ? 'changed' : 'gone', current };
    });
    return result.outcome === 'released' ? { ...result, released: before } : result;
  }
}

const sizeOf = (kv: EtcdKv) =>
  kv.oversized ? `whose value is larger than ${OVERSIZE_LABEL} (not read)` : `of ${kv.value.length} bytes`;
