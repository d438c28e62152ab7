// The lock layouts found in etcd (facts-coordination.md Part A §3, Part B §2), read from keys alone:
// - Go `concurrency.Mutex` / `etcdctl lock` / v3lock: `<name>/<lease in lower-case hex>`, value empty; the key with
//   the lowest create revision holds, every other key under `<name>/` is a waiter in create-revision order.
// - Go `concurrency.Election` / `etcdctl elect`: the same layout with the proposal as the value (leader + candidates);
//   npm etcd3's Election: `<name>/<lease in decimal>`.
// - npm `etcd3` locks: the key is the name, value empty, on a lease; no queue.
// - python3-etcd3 locks: `/locks/<name>`, value 16 raw bytes (a uuid1), on a lease; no queue.
// Keys are parsed strictly (the suffix must be the key's own lease), so lock `a`'s prefix `a/` never takes in the
// keys of lock `a/b` (`a/b/<hex>`). Everything else is not a lock.

export type EtcdFormat = 'etcd-mutex' | 'etcd-election' | 'etcd3-lock' | 'python-etcd3';

/** One key as read (a KeyValue of the v3 API; int64s as decimal strings). */
export interface EtcdKv {
  key: string;
  value: Buffer;
  createRevision: string;
  modRevision: string;
  /** The lease id in decimal, "0" for none. */
  lease: string;
  /** The value is over 64 KiB (bounded-read.ts): not read, `value` is empty. */
  oversized?: true;
}

/** A lock: its holder key and, for queued layouts, the waiters in grant order. */
export interface EtcdReading {
  name: string;
  format: EtcdFormat;
  label: string;
  holder: EtcdKv;
  waiters: EtcdKv[];
}

const FORMAT_LABELS: Record<EtcdFormat, string> = {
  'etcd-mutex': 'etcd concurrency.Mutex (etcdctl lock)',
  'etcd-election': 'etcd concurrency.Election (etcdctl elect)',
  'etcd3-lock': 'etcd3 (npm) lock',
  'python-etcd3': 'python3-etcd3 lock',
};

/** How the values never read are named. */
export const OVERSIZE_LABEL = '64 KiB';

export const leaseHex = (lease: string): string => BigInt(lease).toString(16);

/** Where one key belongs: a queue entry of lock `name`, a single-key lock, or null (not a lock). */
export function classifyKey(kv: EtcdKv): { name: string; format: EtcdFormat; queued: boolean } | null {
  if (kv.lease === '0' || !/^\d+$/.test(kv.lease)) return null;
  const slash = kv.key.lastIndexOf('/');
  if (slash > 0) {
    const name = kv.key.slice(0, slash);
    const suffix = kv.key.slice(slash + 1);
    if (/^[0-9a-f]{1,16}$/.test(suffix) && suffix === leaseHex(kv.lease))
      return { name, format: kv.value.length === 0 && !kv.oversized ? 'etcd-mutex' : 'etcd-election', queued: true };
    if (/^\d{1,20}$/.test(suffix) && suffix === kv.lease && (kv.value.length > 0 || kv.oversized))
      return { name, format: 'etcd-election', queued: true };
  }
  if (kv.key.startsWith('/locks/') && kv.key.length > 7 && isUuid1(kv.value))
    return { name: kv.key, format: 'python-etcd3', queued: false };
  if (kv.value.length === 0 && !kv.oversized) return { name: kv.key, format: 'etcd3-lock', queued: false };
  return null;
}

function isUuid1(b: Buffer): boolean {
  return b.length === 16 && b[6]! >> 4 === 1 && (b[8]! & 0xc0) === 0x80;
}

/** Groups keys (sorted by create revision, ascending) into locks; `skipped` counts the keys that are not locks. */
export function readLocks(kvs: EtcdKv[]): { locks: EtcdReading[]; skipped: number } {
  const byName = new Map<string, EtcdReading>();
  let skipped = 0;
  for (const kv of sortByCreate(kvs)) {
    const c = classifyKey(kv);
    const found = c && byName.get(c.name);
    if (!c || (found && (!c.queued || found.format !== c.format))) {
      skipped++;
      continue;
    }
    if (found) found.waiters.push(kv);
    else byName.set(c.name, { name: c.name, format: c.format, label: labelOf(c.format, kv), holder: kv, waiters: [] });
  }
  return { locks: [...byName.values()], skipped };
}

function labelOf(format: EtcdFormat, kv: EtcdKv): string {
  const suffix = kv.key.slice(kv.key.lastIndexOf('/') + 1);
  if (format === 'etcd-election' && suffix === kv.lease && suffix !== leaseHex(kv.lease)) return 'etcd3 (npm) Election';
  return FORMAT_LABELS[format];
}

export function sortByCreate(kvs: EtcdKv[]): EtcdKv[] {
  return [...kvs].sort((a, b) => {
    const d = BigInt(a.createRevision) - BigInt(b.createRevision);
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  });
}

/** Who a key names, as its recipe records it. */
export function identityOf(format: EtcdFormat, kv: EtcdKv): string {
  if (kv.oversized) return `(a value larger than ${OVERSIZE_LABEL}: not read)`;
  if (format === 'etcd-election') return kv.value.toString('utf8');
  if (format === 'python-etcd3') {
    const h = kv.value.toString('hex');
    return `uuid ${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
  return `lease ${leaseHex(kv.lease)}`;
}
