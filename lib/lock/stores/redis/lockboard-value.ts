// Lockboard's own Redis value (lib/lock/stores/redis/lock.ts writes it): JSON written by whoever can SET the key, so
// every field is checked for its type where it is read; a wrong-typed one is dropped and named in the lock's note.
import { isValidTime } from '../../time';
import { FieldReader, jsonObject } from '../../support/untrusted';
import type { RedisReading } from './formats';

/** Lockboard's own value: JSON whose every field is checked for its type (a holder may have written anything). */
export function readLockboard(
  v: string,
  base: Pick<RedisReading, 'name' | 'versionOf' | 'details' | 'releaseNote'>,
): RedisReading | null {
  const obj = jsonObject(v);
  if (!obj) return null;
  const f = new FieldReader(obj);
  const identity = f.text('identity');
  const [host, pid, purpose, token] = [
    f.text('host'),
    f.text('pid') ?? f.number('pid')?.toString(),
    f.text('purpose'),
    f.text('token'),
  ];
  // times and durations a Date can hold: an absurd one (1e308) is dropped, never thrown on
  const positive = (key: string) => {
    const n = f.number(key);
    if (n === undefined || n <= 0) return undefined;
    if (isValidTime(n)) return n;
    f.dropped.push(`${key} (out of range)`);
    return undefined;
  };
  const [acquiredMs, ttlMs, refreshMs] = [positive('acquired_ms'), positive('ttl_ms'), positive('refresh_ms')];
  const note = f.note();
  return {
    ...base,
    format: 'lockboard',
    label: 'Lockboard lock',
    ...(identity !== undefined ? { identity } : {}),
    ...(acquiredMs !== undefined ? { acquiredMs } : {}),
    ...(ttlMs !== undefined ? { ttlMs } : {}),
    ...(refreshMs !== undefined ? { refreshMs } : {}),
    ...(token !== undefined ? { token } : {}),
    details: (
      [
        ['Identity', identity],
        ['Host', host],
        ['PID', pid],
        ['Purpose', purpose],
        ['Fencing token', token],
      ] as [string, string | undefined][]
    ).filter((d): d is [string, string] => Boolean(d[1])),
    releaseNote: `${base.releaseNote} The holder learns at its next refresh and its signal aborts.`,
    ...(note ? { note } : {}),
  };
}
