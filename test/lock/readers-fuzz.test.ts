// Every format reader is total (#51): the object formats (GCS, S3, Azure), the Redis formats and the etcd layouts are
// fed truncated and random bodies under every name they know; none throws, and what is not a lock reads as not one (the
// listing counts it as skipped), never as an exception that would hide its neighbours. The file store's readers are
// fuzzed in test/files/hostile.test.ts.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { classifyObject, needsBody } from '@/lib/lock/objects/formats';
import { readRedisKey, type RedisKeyRead } from '@/lib/lock/stores/redis/formats';
import { redisView } from '@/lib/lock/stores/redis/view';
import { SeenSince } from '@/lib/lock/support/seen-since';
import { readLocks, identityOf, type EtcdKv } from '@/lib/lock/stores/etcd/formats';
import { etcdView } from '@/lib/lock/stores/etcd/view';

/** Every prefix of each seed and a random body of each length: the bodies a torn write or a hostile holder leaves. */
function bodies(seeds: string[]): Buffer[] {
  const out: Buffer[] = [];
  for (const s of seeds.map((x) => Buffer.from(x)))
    for (let i = 0; i <= s.length; i += Math.max(1, Math.floor(s.length / 16))) {
      out.push(s.subarray(0, i), randomBytes(i));
      const flipped = Buffer.from(s.subarray(0, i));
      const j = Math.floor(Math.random() * i);
      if (i) flipped[j] = flipped[j]! ^ 0xff;
      out.push(flipped);
    }
  return out;
}

const JSON_SEEDS = [
  '{"ID":"3f1c2a9e-1111-2222-3333-444455556666","Operation":"OperationTypeApply","Info":"","Who":"a@h","Version":"1.9.0","Created":"2024-05-01T10:00:00.123456Z","Path":"s/terraform.tfstate"}',
  '{"pid":4242,"username":"ci","hostname":"runner","timestamp":"2024-05-01T10:00:00Z"}',
  '{"format":"lockboard/1","identity":"me","purpose":"deploy","acquiredAt":"2024-05-01T10:00:00Z","ttlMs":30000,"generation":"7"}',
  '{"hostname":"h","pid":1,"exclusive":true,"time":"2024-05-01T10:00:00Z","username":"u","repoID":"abc"}',
  '{"Session":"s","Value":"v","Expires":1714557600}',
  '{"created":"2024-05-01T10:00:00Z","expires":"2024-05-01T10:05:00Z","owner":"x"}',
  '1714557600000',
];

describe('every reader is total', () => {
  it('object formats: truncated and random bodies and metadata under every known name never throw', () => {
    const names = [
      'env/prod.tflock',
      'env/terraform.tfstate.tflock',
      '.pulumi/locks/organization/p/stack/abc.json',
      'locks/a.lock',
      'restic/locks/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      'vault/core/lock',
      'certmagic/locks/x.lock',
      't/.hoodie/.aux/lock',
      'x',
    ];
    const metas: Record<string, string>[] = [
      {},
      { expiry: '12' },
      { 'x-goog-meta-x': '\u0000' },
      { expires: 'NaN', owner: '' },
      { ttl: '-1', created: 'z' },
    ];
    let tried = 0;
    let locks = 0;
    for (const name of names)
      for (const body of bodies(JSON_SEEDS))
        for (const metadata of metas) {
          const view = { name, metadata, size: body.length, createdMs: 1, updatedMs: 2, temporaryHold: false, body };
          const r = (() => {
            needsBody(view);
            return classifyObject(view);
          })();
          expect(['data', 'other', 'lock']).toContain(r.kind);
          if (r.kind === 'lock') locks++;
          else expect(r.reason.length).toBeGreaterThan(0); // the listing's skipped reason
          tried++;
        }
    expect(tried).toBeGreaterThan(2_000);
    expect(locks).toBeGreaterThan(0); // the seeds are read as locks where whole
  }, 120_000);

  it('Redis formats: truncated and random values and hashes never throw, in the reader or the view', () => {
    const keys = ['lock:jobs', 'f:bsm', 'locks:x', 'resque:lock:j', 'x:0123456789abcdef0123456789abcdef:LOCKED', 'r'];
    const seeds = [
      ...JSON_SEEDS,
      'Zm9vYmFyYmF6cXV4cXV1eHl6', // base64 of 18 bytes
      '0123456789abcdef0123456789abcdef',
      'aGVsbG8td29ybGQtMTIzNA==',
    ];
    const seen = new SeenSince(true); // as the Redis store keeps it: first sightings and expiries
    let tried = 0;
    for (const key of keys)
      for (const body of bodies(seeds))
        for (const pttl of [-1, 5_000]) {
          const text = body.toString('utf8');
          const hashField = `${'0123abcd-0123-4567-89ab-0123456789ab'}:${body.length}`;
          const reads: RedisKeyRead[] = [
            { key, type: 'string', value: text, pttl },
            { key, type: 'hash', hash: { [hashField]: text, [text]: String(body.length) }, pttl },
            { key, type: 'hash', hash: {}, pttl },
          ];
          for (const k of reads) {
            expect(
              () => {
                const r = readRedisKey(k);
                if (r) redisView(r, k, 1_714_557_600_000, { source: 'redis://t', firstSeen: seen });
              },
              `${key} ${k.type} ${body.toString('hex')}`,
            ).not.toThrow();
            tried++;
          }
        }
    expect(tried).toBeGreaterThan(2_000);
  }, 120_000);

  it('etcd layouts: random keys, values, leases and revisions never throw; a key that is no lock is counted', () => {
    const keyOf = [
      (b: Buffer) => `/locks/${b.toString('hex')}`,
      (b: Buffer) => `job/${(b.length * 7919).toString(16)}`,
      (b: Buffer) => `e/${b.length}`,
      (b: Buffer) => b.toString('utf8'),
    ];
    const leases = ['0', '1', '7919', '18446744073709551615', '-3', 'x', ''];
    let tried = 0;
    for (const body of bodies(JSON_SEEDS.slice(0, 3)))
      for (const lease of leases) {
        const kvs: EtcdKv[] = keyOf.map((k, i) => ({
          key: k(body),
          value: i % 2 ? body : Buffer.alloc(0),
          createRevision: String(body.length + i),
          modRevision: i ? String(body.length) : 'NaN',
          lease: lease === '1' ? String(body.length * 7919) : lease,
        }));
        expect(
          () => {
            const { locks, skipped } = readLocks(kvs);
            expect(locks.length + skipped).toBeLessThanOrEqual(kvs.length);
            for (const l of locks) {
              identityOf(l.format, l.holder);
              etcdView(l, { ttl: 5, granted: 10, keys: null }, { source: 'etcd://t', now: 1, firstSeen: new Map() });
            }
          },
          `${body.toString('hex')} ${lease}`,
        ).not.toThrow();
        tried++;
      }
    expect(tried).toBeGreaterThan(300);
  });
});
