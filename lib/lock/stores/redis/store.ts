// Locks in Redis (stores.md): listed with SCAN (never KEYS) and pipelined TYPE/GET/HGETALL/PTTL, judged on Redis's
// TIME; force-released by one Lua script per format that compares what the operator saw (a hash of the value, or of
// Redisson's / SUJ's owner field) and deletes only on a match, waking that format's waiters as its own unlock does;
// audited in a stream of the same database before and after.
import type { AuditRecord } from '../../audit-record';
import { assertVersion, notALockView, recordedRelease, type LockStore, type LockView } from '../../store';
import type { ChangeFeed, ChangeFeedHandlers, ReleaseRequest, StorePage, StoreReleaseResult } from '../../store';
import { RedisConn, type RedisClientLike } from './conn';
import { startRedisFeed } from './feed';
import { isCompanionKey, readRedisKey, type RedisKeyRead, type RedisReading } from './formats';
import { hashOf, readEvents, recordEvent } from './audit';
import { releaseScript } from './release';
import { REDIS_VERSION } from './version';
import { redisTerms, redisView } from './view';

export interface RedisStoreOptions {
  client: RedisClientLike;
  /** SCAN MATCH pattern (default `*`). */
  match?: string;
  /** Source as shown, without credentials, e.g. `redis://cache-1:6379/0?match=lock*`. */
  source?: string;
  /** The database number, for keyspace notifications (default 0). */
  db?: number;
  /** Audit stream key (default `lockboard:audit`). */
  auditStream?: string;
  /** Locks held longer than this (or with no TTL and seen this long) are `long-held`. */
  longHeldMs?: number;
  close?: () => Promise<void>;
}

const BATCH = 1000;
/** Keys read per listing page: a million-key database is listed in pages, never held whole. */
const PAGE_KEYS = 10_000;
export class RedisLockStore implements LockStore {
  readonly kind = 'redis';
  readonly versionShape = REDIS_VERSION;
  readonly conn: RedisConn;
  readonly source: string;
  private readonly stream: string;
  /** First time each (key, version) was seen: "held for" where a format records no acquire time. */
  private readonly firstSeen = new Map<string, number>();
  /** The (key, version) pairs seen by the listing pass under way: first-seen times of the others are dropped at its end. */
  private passSeen: Set<string> | undefined;

  constructor(private readonly o: RedisStoreOptions) {
    this.conn = new RedisConn(o.client);
    this.source = o.source ?? 'redis';
    this.stream = o.auditStream ?? 'lockboard:audit';
  }

  now(): number {
    return this.conn.now();
  }

  /** Keyspace notifications, if this server's operator enabled them (never enabled here). */
  changes(handlers: ChangeFeedHandlers): Promise<ChangeFeed | null> {
    const o = { db: this.o.db ?? 0, match: this.o.match ?? '*', ignore: this.stream };
    return startRedisFeed(this.conn, o, handlers);
  }

  async close(): Promise<void> {
    await this.o.close?.();
  }

  /** Keys in the database (DBSIZE): the listing's estimated total. */
  estimateTotal(): Promise<number> {
    return this.conn.dbsize();
  }

  /**
   * One page of a SCAN pass (about 10 000 keys; the token continues it), one pipelined GET per batch (a key of another type answers WRONGTYPE), TYPE for those and HGETALL
   * for the hashes (a lock is a string or a hash; anything else is skipped), and PTTL only for the keys that are locks.
   */
  async list(pageToken?: string): Promise<StorePage> {
    const now = await this.conn.time();
    const page = await this.conn.scanPage(this.o.match ?? '*', pageToken, { count: 1000, budget: PAGE_KEYS });
    const keys = [...new Set(page.keys)].filter((k) => k !== this.stream);
    const locks: LockView[] = [];
    let skipped = 0;
    if (!pageToken || !this.passSeen) this.passSeen = new Set();
    const seen = this.passSeen;
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
    if (!page.next) {
      for (const k of this.firstSeen.keys()) if (!seen.has(k)) this.firstSeen.delete(k);
      this.passSeen = undefined;
    }
    return {
      locks: locks.sort((a, b) => a.name.localeCompare(b.name)),
      skipped,
      serverTime: new Date(now).toISOString(),
      ...(page.next ? { nextPageToken: page.next } : {}),
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

  /** The format's compare-and-delete: one round trip. */
  private async compareAndDelete(n: string, version: string, format: string) {
    const [script, keys] = releaseScript(n, format);
    const result = Number(await this.conn.cmd(n, ['EVAL', script, String(keys.length), ...keys, version.slice(0, 16)]));
    const outcome = result === 1 ? 'released' : result === -1 ? 'gone' : 'changed';
    return { outcome, current: outcome === 'released' ? null : await this.inspect(n) } as const;
  }

  record(fields: Record<string, string>): Promise<string> {
    return recordEvent(this.conn, this.stream, fields);
  }

  readAudit(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    return readEvents(this.conn, this.stream, from, to, lock);
  }

  private view(r: RedisReading, k: RedisKeyRead, now: number): LockView {
    return redisView(r, k, now, { source: this.source, firstSeen: this.firstSeen, longHeldMs: this.o.longHeldMs });
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
}
