// Locks in Redis (stores.md): listed with SCAN (never KEYS) and pipelined TYPE/GET/HGETALL/PTTL, judged on Redis's
// TIME; force-released by one Lua script per format that compares what the operator saw (a hash of the value, or of
// Redisson's / SUJ's owner field) and deletes only on a match, waking that format's waiters as its own unlock does;
// audited in a stream of the same database before and after.
import { AUDIT_STRING_FIELDS, type AuditRecord } from '../../audit-record';
import { assertVersion, notALockView, recordedRelease, type LockStore, type LockView } from '../../store';
import type { ReleaseRequest, StorePage, StoreReleaseResult, StoreTerms } from '../../store';
import type { LockHealth } from '../../types';
import { RedisConn, type RedisClientLike } from './conn';
import { isCompanionKey, readRedisKey, versionOf, type RedisKeyRead, type RedisReading } from './formats';
import { REDIS_VERSION } from './version';

export interface RedisStoreOptions {
  client: RedisClientLike;
  /** SCAN MATCH pattern (default `*`). */
  match?: string;
  /** Source as shown, without credentials, e.g. `redis://cache-1:6379/0?match=lock*`. */
  source?: string;
  /** Audit stream key (default `lockboard:audit`). */
  auditStream?: string;
  /** Locks held longer than this (or with no TTL and seen this long) are `long-held`. */
  longHeldMs?: number;
  close?: () => Promise<void>;
}

const BATCH = 1000;
const SHA = (v: string) => `string.sub(redis.sha1hex(${v}), 1, 16)`;
/** KEYS[1] lock; ARGV[1] version. 1 released, 0 changed, -1 gone. */
const STRING_RELEASE = `local v = redis.call('GET', KEYS[1]) if not v then return -1 end if ${SHA('v')} ~= ARGV[1] then return 0 end redis.call('DEL', KEYS[1]) return 1`;
/** python-redis-lock: also wake the waiters blocked on BLPOP lock-signal:<name>, as UNLOCK_SCRIPT does. */
const PRL_RELEASE = `local v = redis.call('GET', KEYS[1]) if not v then return -1 end if ${SHA('v')} ~= ARGV[1] then return 0 end redis.call('DEL', KEYS[2]) redis.call('LPUSH', KEYS[2], 1) redis.call('PEXPIRE', KEYS[2], 1000) redis.call('DEL', KEYS[1]) return 1`;
/** Redisson: the owner field seen still holds it → DEL and publish the unlock message (0) on the lock's channel. */
const REDISSON_RELEASE = `if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do if ${SHA('f')} == ARGV[1] then redis.call('DEL', KEYS[1]) redis.call('PUBLISH', KEYS[2], 0) return 1 end end return 0`;
/** sidekiq-unique-jobs: the jid seen is still in <digest>:LOCKED → unlink the digest's keys, as unlock.lua does. */
const SUJ_RELEASE = `if redis.call('EXISTS', KEYS[2]) == 0 then return -1 end for _, f in ipairs(redis.call('HKEYS', KEYS[2])) do if ${SHA('f')} == ARGV[1] then redis.call('UNLINK', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]) redis.call('ZREM', KEYS[6], KEYS[1]) return 1 end end return 0`;

export class RedisLockStore implements LockStore {
  readonly kind = 'redis';
  readonly versionShape = REDIS_VERSION;
  readonly conn: RedisConn;
  readonly source: string;
  private readonly stream: string;
  /** First time each (key, version) was seen: "held for" where a format records no acquire time. */
  private readonly firstSeen = new Map<string, number>();

  constructor(private readonly o: RedisStoreOptions) {
    this.conn = new RedisConn(o.client);
    this.source = o.source ?? 'redis';
    this.stream = o.auditStream ?? 'lockboard:audit';
  }

  now(): number {
    return this.conn.now();
  }

  async close(): Promise<void> {
    await this.o.close?.();
  }

  /**
   * One SCAN pass, one pipelined GET per batch (a key of another type answers WRONGTYPE), TYPE for those and HGETALL
   * for the hashes (a lock is a string or a hash; anything else is skipped), and PTTL only for the keys that are locks.
   */
  async list(): Promise<StorePage> {
    const now = await this.conn.time();
    const keys = (await this.conn.scan(this.o.match ?? '*', 1000)).filter((k) => k !== this.stream);
    const locks: LockView[] = [];
    let skipped = 0;
    const seen = new Set<string>();
    const WRONG = Symbol('not a string');
    for (let i = 0; i < keys.length; i += BATCH) {
      const batch = keys.slice(i, i + BATCH).filter((k) => !isCompanionKey(k));
      skipped += Math.min(BATCH, keys.length - i) - batch.length;
      const values = await this.conn.pipeline(
        batch.map((k) => [k, ['GET', k]]),
        () => WRONG,
      );
      // the keys of other types: only hashes are read (a TYPE answers without an error for lists, sets...)
      const others = batch.filter((_, j) => values[j] === WRONG);
      const types = await this.conn.pipeline(others.map((k) => [k, ['TYPE', k]]));
      const hashKeys = others.filter((_, j) => String(types[j]) === 'hash');
      const hashes = await this.conn.pipeline(
        hashKeys.map((k) => [k, ['HGETALL', k]]),
        () => null,
      );
      const hashOfKey = new Map(hashKeys.map((k, j) => [k, hashes[j]]));
      const found: [RedisReading, RedisKeyRead][] = [];
      batch.forEach((key, j) => {
        const v = values[j];
        const h = hashOfKey.get(key);
        const read: RedisKeyRead | null =
          v === WRONG
            ? h === null || h === undefined
              ? null
              : { key, type: 'hash', hash: hashOf(h), pttl: -1 }
            : v === null || v === undefined
              ? null // expired between SCAN and GET
              : { key, type: 'string', value: String(v), pttl: -1 };
        const reading = read && readRedisKey(read);
        if (reading && read) found.push([reading, read]);
        else skipped++;
      });
      const pttls = await this.conn.pipeline(found.map(([, read]) => [read.key, ['PTTL', read.key]]));
      found.forEach(([reading, read], j) => {
        const pttl = Number(pttls[j]);
        if (pttl === -2) return; // expired between the reads: gone
        seen.add(`${reading.name}\u0000${reading.versionOf}`);
        locks.push(this.view(reading, { ...read, pttl }, now));
      });
    }
    for (const k of this.firstSeen.keys()) if (!seen.has(k)) this.firstSeen.delete(k);
    return {
      locks: locks.sort((a, b) => a.name.localeCompare(b.name)),
      skipped,
      serverTime: new Date(now).toISOString(),
    };
  }

  /** One key as the formats see it: TYPE and PTTL in one round trip, then GET or HGETALL. */
  private async readKeys(keys: string[]): Promise<(RedisKeyRead | { key: string; type: string } | null)[]> {
    return Promise.all(
      keys.map(async (key): Promise<RedisKeyRead | null> => {
        const [type, pttl] = await this.conn.pipeline([
          [key, ['TYPE', key]],
          [key, ['PTTL', key]],
        ]);
        const meta = { key, type: String(type), pttl: Number(pttl) };
        if (meta.type === 'string') return { ...meta, value: String((await this.conn.cmd(key, ['GET', key])) ?? '') };
        if (meta.type === 'hash') return { ...meta, hash: hashOf(await this.conn.cmd(key, ['HGETALL', key])) };
        return meta.type === 'none' ? null : meta;
      }),
    );
  }

  async inspect(name: string): Promise<LockView | null> {
    const now = await this.conn.time();
    const sujLocked = `${name}:LOCKED`;
    const [read] = await this.readKeys([name]);
    const reading = read && 'pttl' in read ? readRedisKey(read) : null;
    if (reading) return this.view(reading, read as RedisKeyRead, now);
    const [suj] = await this.readKeys([sujLocked]);
    const sujReading = suj && 'pttl' in suj ? readRedisKey(suj) : null;
    if (sujReading) return this.view(sujReading, suj as RedisKeyRead, now);
    if (!read) return null;
    const what = `A Redis ${read.type}${'value' in read && read.value !== undefined ? ` of ${read.value.length} bytes` : ''}`;
    return notALockView({
      kind: this.kind,
      source: this.source,
      name,
      what,
      nowMs: now,
      terms: redisTerms(false, false),
    });
  }

  private view(r: RedisReading, k: RedisKeyRead, now: number): LockView {
    const version = versionFor(r);
    const seenKey = `${r.name}\u0000${r.versionOf}`;
    const firstSeen = this.firstSeen.get(seenKey) ?? now;
    this.firstSeen.set(seenKey, firstSeen);
    const since = r.acquiredMs ?? firstSeen;
    const expiresAt = k.pttl > 0 ? now + k.pttl : r.staleAtMs;
    const health = judge(now, since, k.pttl, r, this.o.longHeldMs);
    return {
      store: 'redis',
      source: this.source,
      bucket: this.source,
      name: r.name,
      format: r.format as LockView['format'],
      formatLabel: r.label,
      ...(r.identity ? { identity: r.identity } : {}),
      generation: r.token ?? '0',
      metageneration: '0',
      createdAt: new Date(since).toISOString(),
      updatedAt: new Date(since).toISOString(),
      heldMs: Math.max(0, now - since),
      ...(expiresAt !== undefined
        ? { expiresAt: new Date(expiresAt).toISOString(), afterExpiry: 'expired' as const }
        : {}),
      ...(r.ttlMs ? { ttlMs: r.ttlMs } : {}),
      ...(r.refreshMs ? { refreshIntervalMs: r.refreshMs } : {}),
      health,
      metadata: {},
      details: [
        ...r.details,
        ['Redis TTL', k.pttl > 0 ? `${Math.round(k.pttl / 100) / 10} s` : 'none (never expires by itself)'],
        [
          'Held for',
          r.acquiredMs ? 'since the time the format records' : 'seen since (this format records no acquire time)',
        ],
      ],
      releasable: true,
      releaseRule: 'delete',
      releaseNote: r.releaseNote,
      ...(!r.identity ? { note: 'The owner is not recorded by this format (a random token).' } : {}),
      size: (k.value ?? '').length,
      version,
      versionLabel: `value hash ${version.slice(0, 8)}`,
      terms: redisTerms(r.acquiredMs !== undefined, k.pttl > 0),
    };
  }

  /** The compare-and-delete of the lock's format, audited in the stream before and after. */
  async forceRelease(o: ReleaseRequest): Promise<StoreReleaseResult> {
    assertVersion(this, o.version);
    const before = await this.inspect(o.name);
    if (!before) return { outcome: 'gone', current: null, audit: [] };
    if (!before.releasable) return { outcome: 'not-a-lock', current: before, audit: [] };
    const fields = { version: o.version, operator: o.operator, reason: o.reason, format: before.format };
    const trail = { lock: o.name, trail: this.stream, fields, record: (f: Record<string, string>) => this.record(f) };
    return recordedRelease(trail, () => this.compareAndDelete(o.name, o.version, before.format));
  }

  /** The format's Lua compare-and-delete: one round trip. */
  private async compareAndDelete(n: string, version: string, format: string) {
    const hash = version.slice(0, 16);
    const [script, keys] =
      format === 'redisson'
        ? [REDISSON_RELEASE, [n, `redisson_lock__channel:${n.includes('{') ? n : `{${n}}`}`]]
        : format === 'sidekiq-unique-jobs'
          ? [
              SUJ_RELEASE,
              [
                n,
                `${n}:LOCKED`,
                `${n}:QUEUED`,
                `${n}:PRIMED`,
                `${n}:INFO`,
                `${n.slice(0, n.lastIndexOf(':'))}:digests`,
              ],
            ]
          : format === 'python-redis-lock'
            ? [PRL_RELEASE, [n, signalKeyOf(n)]]
            : [STRING_RELEASE, [n]];
    const result = Number(await this.conn.cmd(n, ['EVAL', script, String(keys.length), ...keys, hash]));
    const outcome = result === 1 ? 'released' : result === -1 ? 'gone' : 'changed';
    return { outcome, current: outcome === 'released' ? null : await this.inspect(n) } as const;
  }

  /** One event in the audit stream (XADD, capped near 100 000 entries). */
  async record(fields: Record<string, string>): Promise<string> {
    const flat = Object.entries({ ...fields, at: new Date(this.conn.now()).toISOString() }).flat();
    return String(await this.conn.cmd(this.stream, ['XADD', this.stream, 'MAXLEN', '~', '100000', '*', ...flat]));
  }

  /** Events of [from, to) by stream id (the id is the server's millisecond time). */
  async readAudit(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    const out: AuditRecord[] = [];
    let start = String(from.getTime());
    const end = String(to.getTime() - 1);
    for (;;) {
      const page = (await this.conn.cmd(this.stream, ['XRANGE', this.stream, start, end, 'COUNT', '1000'])) as [
        string,
        string[],
      ][];
      for (const [id, flat] of page) {
        const f = hashOf(flat);
        if (!f.event || !f.lock || (lock && f.lock !== lock)) continue;
        const record = {
          id,
          at: new Date(Number(id.split('-')[0])).toISOString(),
          event: f.event,
          lock: f.lock,
        } as AuditRecord;
        for (const k of AUDIT_STRING_FIELDS) if (f[k]) record[k] = f[k];
        out.push(record);
      }
      if (page.length < 1000) return out;
      start = `(${page[page.length - 1]![0]}`;
    }
  }
}

function versionFor(r: RedisReading): string {
  return versionOf(r.versionOf);
}

function judge(now: number, since: number, pttl: number, r: RedisReading, longHeldMs: number | undefined): LockHealth {
  if (r.staleAtMs !== undefined)
    return now >= r.staleAtMs
      ? 'expired'
      : longHeldMs !== undefined && now - since > longHeldMs
        ? 'long-held'
        : 'healthy';
  if (longHeldMs !== undefined && now - since > longHeldMs) return 'long-held';
  if (pttl < 0) return 'unknown'; // no TTL and not held past the threshold: liveness cannot be judged
  if (r.ttlMs && r.refreshMs && r.ttlMs - pttl > 1.5 * r.refreshMs) return 'overdue';
  return 'healthy';
}

/** HGETALL / XRANGE field lists as an object (RESP3 may already give a map). */
function hashOf(reply: unknown): Record<string, string> {
  if (Array.isArray(reply)) {
    const out: Record<string, string> = {};
    for (let i = 0; i + 1 < reply.length; i += 2) out[String(reply[i])] = String(reply[i + 1]);
    return out;
  }
  if (reply instanceof Map) return Object.fromEntries([...reply].map(([k, v]) => [String(k), String(v)]));
  return Object.fromEntries(Object.entries((reply ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}

/** python-redis-lock's waiters block on `lock-signal:<name>` beside `lock:<name>` (under any key prefix). */
function signalKeyOf(key: string): string {
  const at = key.lastIndexOf('lock:');
  return `${key.slice(0, at)}lock-signal:${key.slice(at + 'lock:'.length)}`;
}

/** Redis's words: a key, its value, its TTL; "seen since" where the format records no acquire time. */
function redisTerms(recordsTime: boolean, hasTtl: boolean): StoreTerms {
  return {
    storeLabel: 'Redis',
    versionName: 'hash of the value',
    since: recordsTime ? 'Held since' : 'Seen since',
    ...(hasTtl ? { ttl: 'TTL' } : {}),
    liveness: hasTtl
      ? 'The key expires by itself when its TTL runs out, unless the holder extends it.'
      : 'The key has no TTL: it stays until its owner or an operator deletes it.',
    effect:
      'Clearing deletes the key only if it still holds the value you saw; the holder finds out only when it next checks or extends it.',
    rule: 'Redis rule: one Lua script compares the key with the value you see here (its hash) and deletes it only on a match, then wakes the format’s waiters as its own unlock does. A holder that re-acquired or a successor has another value, so it is never released.',
    trail:
      'Force-releases and Lockboard’s own Redis holders are recorded in the lockboard:audit stream; other libraries record nothing.',
  };
}
