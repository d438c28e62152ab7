// Locks in Redis (docs/stores.md): listed with SCAN (never KEYS) and pipelined TYPE/GET/HGETALL/PTTL, judged on Redis's
// TIME; force-released by one Lua script per format that compares what the operator saw (a hash of the value, or of
// Redisson's / SUJ's owner field) and deletes only on a match, waking that format's waiters as its own unlock does;
// audited in a stream of the same database before and after.
import { SeenSince } from '../../support/seen-since';
import type { AuditRecord } from '../../audit/record';
import { assertVersion, notALockView, recordedRelease, type LockStore, type LockView } from '../../store';
import type { ChangeFeed, ChangeFeedHandlers, ListOptions, ReleaseRequest } from '../../store';
import type { StorePage, StoreReleaseResult } from '../../store';
import { RedisConn, type RedisClientLike } from './conn';
import { startRedisFeed } from './feed';
import { isCompanionKey, readRedisKey, type RedisKeyRead, type RedisReading } from './formats';
import { auditWords, readEvents, recordEvent } from './audit';
import { memoryOnlyTrail } from './persistence';
import type { ClaimLeasing } from '../../claim-lease';
import { claimInRedis, RedisClaims } from './claim';
import { isOversized, readBatch, readOne } from './read';
import { keyBytes } from './byte-keys';
import { MAX_BODY_BYTES } from '../../objects/formats/types';
import { releaseScript } from './release';
import { REDIS_VERSION } from './version';
import { redisTerms } from './words';
import { redisView } from './view';

/** What a key's bytes that are not valid UTF-8 become in a client's text (U+FFFD): a name asked that way. */
const LOSSY = '\uFFFD';
const lossyWhy = (key: string) =>
  `key ${JSON.stringify(key)}: a name with \uFFFD in place of bytes that are not UTF-8 names no key; Lockboard lists such keys escaped (\\xNN for each such byte): ask for that name`;
/** Keys whose names are not UTF-8 read one by one per page (each by its bytes); past this, counted with the reason. */
const MAX_BYTE_KEYS = 200;

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
  private readonly claims: RedisClaims;
  /** First time each (key, version) was seen: "held for" where a format records no acquire time. */
  /** With each TTL lock's expiry as last read: moving later between reads is a live refresher. */
  private readonly firstSeen = new SeenSince(true);

  constructor(private readonly o: RedisStoreOptions) {
    this.source = o.source ?? 'redis';
    this.conn = new RedisConn(o.client, o.source);
    this.stream = o.auditStream ?? 'lockboard:audit';
    this.claims = new RedisClaims((k, args) => this.conn.cmd(k, args), this.stream);
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
  async list(pageToken?: string, o: ListOptions = {}): Promise<StorePage> {
    const now = await this.conn.time();
    const budget = Math.max(1, Math.min(o.pageSize ?? PAGE_KEYS, PAGE_KEYS));
    const scan = { count: Math.min(1000, budget), budget };
    const page = await this.conn.scanPage(this.o.match ?? '*', pageToken, scan);
    // a key whose bytes are not UTF-8 is listed by its escaped name and read by its bytes (byte-keys.ts, #51)
    const unique = [...new Set(page.keys)];
    const keys = unique.filter((k) => k !== this.stream && !page.bytes.has(k));
    const bytes = await this.byteKeys(
      unique.filter((k) => page.bytes.has(k)),
      page.bytes,
      now,
    );
    const locks: LockView[] = bytes.locks;
    let skipped = bytes.skipped;
    const skippedWhy = bytes.why;
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

  /**
   * Keys whose names are not UTF-8, each read by its exact bytes (at most MAX_BYTE_KEYS a page): the locks among
   * them, and the others counted as skipped (with the reason where they were not read).
   */
  private async byteKeys(names: string[], bytes: Map<string, Buffer>, now: number) {
    const read = names.slice(0, MAX_BYTE_KEYS);
    const why = names
      .slice(MAX_BYTE_KEYS, MAX_BYTE_KEYS + 20)
      .map(
        (n) =>
          `key ${n}: its name is not UTF-8 and more than ${MAX_BYTE_KEYS} such keys are in this page: ask for it by name`,
      );
    const locks: LockView[] = [];
    const reads = await Promise.all(read.map((n) => readOne(this.conn, n, bytes.get(n)!)));
    for (const k of reads) {
      const reading = k && !isOversized(k) && k.pttl !== -2 ? readRedisKey(k) : null;
      if (reading) locks.push(this.view(reading, k as RedisKeyRead, now));
    }
    return { locks, skipped: names.length - locks.length, why };
  }

  /** The key by its name; an escaped name that names no key as text is read by the bytes it stands for. */
  private async readNamed(name: string) {
    const read = await readOne(this.conn, name);
    const bytes = keyBytes(name);
    return read || !bytes ? read : readOne(this.conn, name, bytes);
  }

  async inspect(name: string): Promise<LockView | null> {
    const now = await this.conn.time();
    const sujLocked = `${name}:LOCKED`;
    const read = await this.readNamed(name);
    const reading = read && !isOversized(read) ? readRedisKey(read) : null;
    if (reading) return this.view(reading, read as RedisKeyRead, now);
    const suj = await this.readNamed(sujLocked);
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
    const [script, names] = releaseScript(n, format);
    // an escaped name that names no key as text: the script's keys are the exact bytes it stands for
    const asBytes = keyBytes(n) !== null && Number(await this.conn.cmd(n, ['EXISTS', n])) === 0;
    const keys = asBytes ? names.map((k) => keyBytes(k) ?? k) : names;
    const result = Number(
      await this.conn.cmd(keys[0], ['EVAL', script, String(keys.length), ...keys, version.slice(0, 16)]),
    );
    const outcome = result === 1 ? 'released' : result === -1 ? 'gone' : 'changed';
    return { outcome, current: outcome === 'released' ? null : await this.inspect(n) } as const;
  }

  record(fields: Record<string, string>): Promise<string> {
    return recordEvent(this.conn, this.stream, fields);
  }

  readAudit(from: Date, to: Date, lock?: string): Promise<AuditRecord[]> {
    return readEvents(this.conn, this.stream, from, to, lock);
  }

  /** Why the trail is lost on the server's restart (no save rule, appendonly no), or null: persistence.ts. */
  memoryOnlyTrail(): Promise<string | null> {
    return memoryOnlyTrail(this.conn, this.stream);
  }

  /** A create-only marker beside the trail (SET NX, kept two days), or its lease: claim.ts. */
  claim(key: string, lease?: ClaimLeasing): Promise<boolean> {
    if (lease) return lease(this.claims);
    return claimInRedis((k, args) => this.conn.cmd(k, args), this.stream, key);
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
