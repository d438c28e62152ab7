// Bounded reads of etcd values (#39): etcd accepts values up to its request limit (1.5 MiB by default, more where an
// operator raised it) and a key's metadata carries no size, so a range read would take every value whole. A listing
// reads keys only (key, revisions, lease; no value), then the values of the keys that may be locks (every lock layout
// is on a lease) in batches through a second client whose gRPC messages are capped: a reply over the cap is refused
// from its length prefix, before its body is read, and its keys are then read one by one. A key whose reply alone is
// over the cap, or whose value is over 64 KiB, is kept as oversized: its value is never used, as on the other stores.
import { mapLimit } from '../../support/map-limit';
import type { Etcd3Client } from './client';
import type { EtcdKv } from './formats';

/** The largest value read, as on GCS, Redis, DynamoDB and PostgreSQL. */
const MAX_VALUE_BYTES = 64 * 1024;
/** The largest reply the value client accepts: one value at the limit with its key and metadata. */
export const VALUE_MESSAGE_CAP = MAX_VALUE_BYTES + 8 * 1024;
/** Values read per transaction (etcd's default --max-txn-ops is 128), four transactions at a time. */
const BATCH = 64;

interface RawKv {
  key: Buffer;
  value: Buffer;
  create_revision: string;
  mod_revision: string;
  lease: string;
}

const kvOf = (kv: RawKv): EtcdKv => ({
  key: kv.key.toString('utf8'),
  value: kv.value,
  createRevision: kv.create_revision,
  modRevision: kv.mod_revision,
  lease: kv.lease || '0',
});

const tooLarge = (err: unknown) => /larger than max|RESOURCE_EXHAUSTED|ResourceExhausted/i.test(String(err));

/** A key kept without its value: over the cap. */
function oversized(kv: EtcdKv): EtcdKv {
  return { ...kv, value: Buffer.alloc(0), oversized: true };
}

/** The values of `keys` (their keys-only reads), in one transaction per batch; keys deleted meanwhile are left out. */
async function readBatch(values: Etcd3Client, keys: EtcdKv[]): Promise<EtcdKv[]> {
  try {
    const res = await values.kv.txn({
      compare: [],
      success: keys.map((k) => ({ request_range: { key: Buffer.from(k.key, 'utf8') } })),
      failure: [],
    });
    return res.responses.flatMap((r) => (r.response_range?.kvs ?? []).map((kv) => kvOf(kv as RawKv)));
  } catch (err) {
    if (!tooLarge(err)) throw err;
    if (keys.length === 1) return [oversized(keys[0]!)];
    // halves while large, then each key alone: the reply of a large value is refused again, the others are read
    const parts =
      keys.length > 8 ? [keys.slice(0, keys.length / 2), keys.slice(keys.length / 2)] : keys.map((k) => [k]);
    return (await Promise.all(parts.map((p) => readBatch(values, p)))).flat();
  }
}

/**
 * Keys of a range read keys-only, completed with their values where they are on a lease (others are no lock and
 * their values are never needed); a value over 64 KiB is never used.
 */
export async function withBoundedValues(values: Etcd3Client, keysOnly: EtcdKv[]): Promise<EtcdKv[]> {
  const leased = keysOnly.filter((kv) => kv.lease !== '0');
  return [...keysOnly.filter((kv) => kv.lease === '0'), ...(await readValues(values, leased))];
}

/** Every one of `keys` with its value, in batches; a value over 64 KiB is never used (keys gone meanwhile are left out). */
export async function readValues(values: Etcd3Client, keys: EtcdKv[]): Promise<EtcdKv[]> {
  const known = knownLarge(values);
  const out: EtcdKv[] = [];
  const unknown: EtcdKv[] = [];
  for (const kv of keys) {
    if (known.get(kv.key) === kv.modRevision) out.push(oversized(kv));
    else unknown.push(kv);
  }
  const batches: EtcdKv[][] = [];
  for (let i = 0; i < unknown.length; i += BATCH) batches.push(unknown.slice(i, i + BATCH));
  for (const read of (await mapLimit(batches, 4, (b) => readBatch(values, b))).flat()) {
    const kv = read.value.length > MAX_VALUE_BYTES ? oversized(read) : read;
    if (kv.oversized) remember(known, kv);
    out.push(kv);
  }
  return out;
}

// Keys found oversized, by their mod revision: the next listings (the console's, every 2 s) do not ask for them again
// until they change. At most MAX_KNOWN per client, the oldest forgotten first.
const MAX_KNOWN = 10_000;
const large = new WeakMap<Etcd3Client, Map<string, string>>();
function knownLarge(values: Etcd3Client): Map<string, string> {
  let m = large.get(values);
  if (!m) large.set(values, (m = new Map()));
  return m;
}
function remember(known: Map<string, string>, kv: EtcdKv): void {
  known.delete(kv.key);
  known.set(kv.key, kv.modRevision);
  if (known.size > MAX_KNOWN) known.delete(known.keys().next().value!);
}

/** The keys in [start, end) without their values, oldest first (`keys_only`: etcd sends no value). */
export async function readKeysOnly(client: Etcd3Client, start: Buffer, end: Buffer): Promise<EtcdKv[]> {
  const res = await client.kv.range({
    key: start,
    range_end: end,
    keys_only: true,
    sort_order: 'Ascend',
    sort_target: 'Create',
  });
  return res.kvs.map((kv) => kvOf(kv as RawKv));
}

/** One key with its value bounded the same way, lease or not (null: no such key). */
export async function readOneBounded(values: Etcd3Client, key: string): Promise<EtcdKv | null> {
  const res = await values.kv.range({ key: Buffer.from(key, 'utf8'), keys_only: true });
  const found = res.kvs[0];
  if (!found) return null;
  return (await readValues(values, [kvOf(found as RawKv)]))[0] ?? null;
}
