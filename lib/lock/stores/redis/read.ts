// Bounded reads: no value is read past the limit (strings with GETRANGE; hashes and `inspect` ask the size first),
// so one large value (a 64 MB cache entry under the source's pattern) is never sent to the console or the CLI. The
// limit is the one Cloud Storage bodies have (MAX_BODY_BYTES, 64 KiB): no lock value comes near it.
import { MAX_BODY_BYTES } from '../../objects/formats/types';
import { hashOf } from './audit';
import type { RedisArg, RedisConn } from './conn';
import type { RedisKeyRead } from './formats';

const WRONG = Symbol('not a string');
/** A lock's hash has a few fields (Redisson: one per holder thread, SUJ: one per job). */
const MAX_HASH_FIELDS = 64;

/** A key's value is larger than the limit: shown as what it is, never read. */
interface OversizedKey {
  key: string;
  type: string;
  size: number;
  pttl: number;
}

/**
 * Strings read with GETRANGE 0..limit (one command per key, as GET was: a longer value is cut by Redis and skipped
 * here, never sent whole); hashes within the limit (HLEN and MEMORY USAGE, then HGETALL); anything else null.
 */
export async function readBatch(conn: RedisConn, keys: string[]): Promise<(RedisKeyRead | null)[]> {
  const heads = await conn.pipeline(
    keys.map((k) => [k, ['GETRANGE', k, '0', String(MAX_BODY_BYTES)]]),
    () => WRONG,
  );
  const others = keys.filter((_, j) => heads[j] === WRONG);
  const types = await conn.pipeline(others.map((k) => [k, ['TYPE', k]]));
  const hashKeys = await boundedHashes(
    conn,
    others.filter((_, j) => String(types[j]) === 'hash'),
  );
  const hashes = new Map(
    zip(
      hashKeys,
      await conn.pipeline(
        hashKeys.map((k) => [k, ['HGETALL', k]]),
        () => null,
      ),
    ),
  );
  return keys.map((key, j) => {
    const head = heads[j];
    if (head !== WRONG) {
      const value = head === null || head === undefined ? '' : String(head);
      // empty: absent (expired since SCAN) or no lock; longer than the limit: cut, and never read whole
      return value === '' || Buffer.byteLength(value) > MAX_BODY_BYTES
        ? null
        : { key, type: 'string', value, pttl: -1 };
    }
    const h = hashes.get(key);
    return h === undefined || h === null ? null : { key, type: 'hash', hash: hashOf(h), pttl: -1 };
  });
}

/**
 * One key for `inspect`: its type, TTL and size first; its value only when within the limit. `arg` is the key as
 * sent (its exact bytes where the name `key` is escaped: byte-keys.ts).
 */
export async function readOne(
  conn: RedisConn,
  key: string,
  arg: RedisArg = key,
): Promise<RedisKeyRead | OversizedKey | null> {
  const [type, pttl, length] = await conn.pipeline(
    [
      [arg, ['TYPE', arg]],
      [arg, ['PTTL', arg]],
      [arg, ['STRLEN', arg]],
    ],
    () => null,
  );
  const meta = { key, type: String(type), pttl: Number(pttl) };
  if (meta.type === 'none') return null;
  if (meta.type === 'string') {
    const size = Number(length);
    if (size > MAX_BODY_BYTES) return { ...meta, size };
    return { ...meta, value: String((await conn.cmd(arg, ['GET', arg])) ?? '') };
  }
  if (meta.type !== 'hash') return { ...meta, size: 0 };
  if ((await boundedHashes(conn, [arg])).length === 0) return { ...meta, size: MAX_BODY_BYTES + 1 };
  return { ...meta, hash: hashOf(await conn.cmd(arg, ['HGETALL', arg])) };
}

/** The hashes small enough to read: few fields, and (where the server answers MEMORY USAGE) few bytes. */
async function boundedHashes<K extends RedisArg>(conn: RedisConn, keys: K[]): Promise<K[]> {
  const sizes = await conn.pipeline(
    keys.flatMap((k): [RedisArg, RedisArg[]][] => [
      [k, ['HLEN', k]],
      [k, ['MEMORY', 'USAGE', k]],
    ]),
    () => null,
  );
  return keys.filter((_, j) => {
    const [fields, bytes] = [Number(sizes[2 * j]), sizes[2 * j + 1]];
    return fields <= MAX_HASH_FIELDS && (bytes === null || Number(bytes) <= 2 * MAX_BODY_BYTES);
  });
}

function zip<A, B>(a: A[], b: B[]): [A, B][] {
  return a.map((x, i) => [x, b[i]!]);
}

export const isOversized = (r: RedisKeyRead | OversizedKey): r is OversizedKey => 'size' in r;
