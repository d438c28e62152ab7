// Locks in Redis (stores.md): listed with SCAN (never KEYS) and pipelined TYPE/GET/HGETALL/PTTL, judged on Redis's
// TIME; force-released by one Lua script per format that compares what the operator saw (a hash of the value, or of
// Redisson's / SUJ's owner field) and deletes only on a match, waking that format's waiters as its own unlock does;
// audited in a stream of the same database before and after.
import { SeenSince } from '../../support/seen-since';
import type { AuditRecord } from '../../audit/record';
import { assertVersion, notALockView, recordedRelease, type LockStore, type LockView } from '../../store';
import type { ChangeFeed, ChangeFeedHandlers, ReleaseRequest, StorePage, StoreReleaseResult } from '../../store';
import { RedisConn, type RedisClientLike } from './conn';
import { startRedisFeed } from './feed';
import { isCompanionKey, readRedisKey, type RedisKeyRead, type RedisReading } from './formats';
import { auditWords, readEvents, recordEvent } from './audit';
import { isOversized, readBatch, readOne } from './read';
import { MAX_BODY_BYTES } from '../../objects/formats/types';
import { releaseScript } from './release';
import { REDIS_VERSION } from './version';
import { redisTerms } from './words';
import { redisView } from './view';

/** What a key's bytes that are not valid UTF-8 become in the client's text (U+FFFD). */
const LOSSY = '\uFFFD';
const lossyWhy = (key: string) =>
  `key ${JSON.stringify(key)}: its name is not valid UTF-8 (\uFFFD marks the bytes), so Lockboard cannot read it by name; look with redis-cli --scan and remove it there if it is stale`;

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
  /** With each TTL lock's expiry as last read: moving later between reads is a live refresher. */
  private readonly firstSeen = new SeenSince(true);

  constructor(private readonly o: RedisStoreOptions) {
    this.source = o.source ?? 'redis';
    this.conn = new RedisConn(o.client, o.source);
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
   * One page of a SCAN pass (about 10 000 keys; the token continues it); per batch, bounded reads (read.ts: no value
   * past the limit; a lock is a string or a hash, anything else is skipped), and PTTL only for the keys that are locks.
   */
  async list(pageToken?: string): Promise<StorePage> {
    const now = await this.conn.time();
    const page = await this.conn.scanPage(this.o.match ?? '*', pageToken, { count: 1000, budget: PAGE_KEYS });
    // a key whose bytes are not UTF-8 arrives with U+FFFD in place of them and cannot be read back by that string:
    // counted with the reason, never dropped silently (issue #51)
    const lossy = [...new Set(page.keys)].filter((k) => k.includes(LOSSY));
    const keys = [...new Set(page.keys)].filter((k) => k !== this.stream && !k.includes(LOSSY));
    const locks: LockView[] = [];
    let skipped = lossy.length;
    const skippedWhy = lossy.slice(0, 20).map(lossyWhy);
    if (!pageToken) this.firstSeen.newPass();
    for (let i = 0; i < keys.length; i += BATCH) {
      const batch = keys.slice(i, i + BATCH).filter((k) => !isCompanionKey(k));
      skipped += Math.min(BATCH, keys.length - i) - batch.length;
      const reads = await readBatch(this.conn, batch);
      const found: [RedisReading, RedisKeyRead][] = [];
      reads.forEach((read) => {
        const reading = read && readRedisKey(read);
        if (reading && read) found.push([reading, read]);
        else skipped++;
      });
      const pttls = await this.conn.pipeline(found.map(([, read]) => [read.key, ['PTTL', read.key]]));
      found.forEach(([reading, read], j) => {
        const pttl = Number(pttls[j]);
        if (pttl === -2) return; // expired between the reads: gone
        locks.push(this.view(reading, { ...read, pttl }, now));
      });
    }
    return {
      locks: locks.sort((a, b) => a.name.localeCompare(b.name)),
      skipped,
      ...(skippedWhy.length ? { skippedWhy } : {}),
      serverTime: new Date(now).toISOString(),
      ...(page.next ? { nextPageToken: page.next } : {}),
    };
  }

  async inspect(name: string): Promise<LockView | null> {
    const now = await this.conn.time();
    const sujLocked = `${name}:LOCKED`;
    const read = await readOne(this.conn, name);
    const reading = read && !isOversized(read) ? readRedisKey(read) : null;
    if (reading) return this.view(reading, read as RedisKeyRead, now);
    const suj = await readOne(this.conn, sujLocked);
    const sujReading = suj && !isOversized(suj) ? readRedisKey(suj) : null;
    if (sujReading) return this.view(sujReading, suj as RedisKeyRead, now);
    if (!read && name.includes(LOSSY)) return notALockView({ ...this.notALock(name, now), what: lossyWhy(name) }); // maybe there: never "free"
    if (!read) return null;
    const size = isOversized(read) ? read.size : read.value?.length;
    const big = size !== undefined && size > MAX_BODY_BYTES ? ' (larger than 64 KiB: not read)' : '';
    const what = `A Redis ${read.type}${size ? ` of ${size} bytes` : ''}${big}`;
    return notALockView({ ...this.notALock(name, now), what });
  }

  private notALock(name: string, now: number) {
    return { kind: this.kind, source: this.source, name, nowMs: now, terms: redisTerms({}, false) };
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
    return redisView(r, k, now, {
      source: this.source,
      firstSeen: this.firstSeen,
      longHeldMs: this.o.longHeldMs,
    });
  }

  /** The compare-and-delete of the lock's format, audited in the stream before and after. */
  async forceRelease(o: ReleaseRequest): Promise<StoreReleaseResult> {
    assertVersion(this, o.version);
    const before = await this.inspect(o.name);
    if (!before) return { outcome: 'gone', current: null, audit: [] };
    if (!before.releasable) return { outcome: 'not-a-lock', current: before, audit: [] };
    const fields = { version: o.version, operator: o.operator, reason: o.reason, format: before.format };
    const record = (f: Record<string, string>) => this.record(f);
    const trail = { lock: o.name, trail: this.stream, words: auditWords(this.stream), fields, record };
    return recordedRelease(trail, () => this.compareAndDelete(o.name, o.version, before.format));
  }
}
