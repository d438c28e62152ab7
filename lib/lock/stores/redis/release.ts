// Force-release on Redis: one Lua script per format that compares what the operator saw (a hash of the value, or of
// Redisson's / SUJ's owner field) and deletes only on a match, waking that format's waiters as its own unlock does.

const SHA = (v: string) => `string.sub(redis.sha1hex(${v}), 1, 16)`;
/** KEYS[1] lock; ARGV[1] version. 1 released, 0 changed, -1 gone. */
const STRING_RELEASE = `local v = redis.call('GET', KEYS[1]) if not v then return -1 end if ${SHA('v')} ~= ARGV[1] then return 0 end redis.call('DEL', KEYS[1]) return 1`;
/** python-redis-lock: also wake the waiters blocked on BLPOP lock-signal:<name>, as UNLOCK_SCRIPT does. */
const PRL_RELEASE = `local v = redis.call('GET', KEYS[1]) if not v then return -1 end if ${SHA('v')} ~= ARGV[1] then return 0 end redis.call('DEL', KEYS[2]) redis.call('LPUSH', KEYS[2], 1) redis.call('PEXPIRE', KEYS[2], 1000) redis.call('DEL', KEYS[1]) return 1`;
/** Redisson: the owner field seen still holds it → DEL and publish the unlock message (0) on the lock's channel. */
const REDISSON_RELEASE = `if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do if ${SHA('f')} == ARGV[1] then redis.call('DEL', KEYS[1]) redis.call('PUBLISH', KEYS[2], 0) return 1 end end return 0`;
/** sidekiq-unique-jobs: the jid seen is still in <digest>:LOCKED → unlink the digest's keys, as unlock.lua does. */
const SUJ_RELEASE = `if redis.call('EXISTS', KEYS[2]) == 0 then return -1 end for _, f in ipairs(redis.call('HKEYS', KEYS[2])) do if ${SHA('f')} == ARGV[1] then redis.call('UNLINK', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]) redis.call('ZREM', KEYS[6], KEYS[1]) return 1 end end return 0`;

/** The format's Lua compare-and-delete (its script and keys): one round trip, waking waiters as its unlock does. */
export function releaseScript(n: string, format: string): [script: string, keys: string[]] {
  return (
    format === 'redisson'
      ? [REDISSON_RELEASE, [n, `redisson_lock__channel:${n.includes('{') ? n : `{${n}}`}`]]
      : format === 'sidekiq-unique-jobs'
        ? [
            SUJ_RELEASE,
            [n, `${n}:LOCKED`, `${n}:QUEUED`, `${n}:PRIMED`, `${n}:INFO`, `${n.slice(0, n.lastIndexOf(':'))}:digests`],
          ]
        : format === 'python-redis-lock'
          ? [PRL_RELEASE, [n, signalKeyOf(n)]]
          : [STRING_RELEASE, [n]]
  ) as [string, string[]];
}

/** python-redis-lock's waiters block on `lock-signal:<name>` beside `lock:<name>` (under any key prefix). */
function signalKeyOf(key: string): string {
  const at = key.lastIndexOf('lock:');
  return `${key.slice(0, at)}lock-signal:${key.slice(at + 'lock:'.length)}`;
}
