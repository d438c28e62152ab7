// A delivery claim in Redis (one webhook delivery per event across console replicas): the key
// `<audit stream>:claims:<key>`, expiring by itself after two days, longer than any retry series (an hour) and any
// replica's look-back (minutes). As a lease (claim-lease.ts) its value is `lockboard-claim <lease JSON>`, created with
// SET NX and replaced by one Lua compare-and-set on the whole value (the value is its version); the create-only
// marker of `claim` is "1". Neither value is any lock format's: never listed.
import type { ClaimRecords } from '../../claim-lease';

/** How long a claim is kept: far past a delivery's retries and a restarted replica's look-back. */
const CLAIM_TTL_MS = 2 * 86_400_000;

const claimKeyOf = (stream: string, key: string): string => `${stream}:claims:${key}`;

type Cmd = (key: string, args: string[]) => Promise<unknown>;

/** SET NX PX: true for the one caller that set it. */
export async function claimInRedis(cmd: Cmd, stream: string, key: string): Promise<boolean> {
  const k = claimKeyOf(stream, key);
  const reply = await cmd(k, ['SET', k, '1', 'NX', 'PX', String(CLAIM_TTL_MS)]);
  return reply !== null && reply !== undefined && String(reply) === 'OK';
}

const PREFIX = 'lockboard-claim ';
// the value replaced only if unchanged, keeping the key's expiry
const REPLACE = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then ttl = tonumber(ARGV[3]) end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ttl)
return 1`;

export class RedisClaims implements ClaimRecords {
  constructor(
    private readonly cmd: Cmd,
    private readonly stream: string,
  ) {}

  async create(key: string, body: string): Promise<string | null> {
    const k = claimKeyOf(this.stream, key);
    const value = PREFIX + body;
    const reply = await this.cmd(k, ['SET', k, value, 'NX', 'PX', String(CLAIM_TTL_MS)]);
    return reply !== null && reply !== undefined && String(reply) === 'OK' ? value : null;
  }

  async read(key: string): Promise<{ body: string; version: string } | null> {
    const value = await this.cmd(claimKeyOf(this.stream, key), ['GET', claimKeyOf(this.stream, key)]);
    if (value === null || value === undefined) return null;
    const v = String(value);
    return { body: v.startsWith(PREFIX) ? v.slice(PREFIX.length) : v, version: v };
  }

  async replace(key: string, body: string, version: string): Promise<string | null> {
    const k = claimKeyOf(this.stream, key);
    const value = PREFIX + body;
    const done = await this.cmd(k, ['EVAL', REPLACE, '1', k, version, value, String(CLAIM_TTL_MS)]);
    return Number(done) === 1 ? value : null;
  }
}
