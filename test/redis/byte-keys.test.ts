// Redis keys are bytes (#51): a key whose name is not valid UTF-8 is listed by its escaped name (`\xNN`), read and
// released by its exact bytes, and `status` of that name finds it; a key whose text merely looks escaped stays its own.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisLockStore } from '@/lib/lock/stores/redis';
import { keyBytes, keyName } from '@/lib/lock/stores/redis/byte-keys';
import { runCli } from '../helpers/cli';
import { startRedis, type TestRedis } from '../helpers/redis';

let r: TestRedis;
beforeAll(async () => {
  r = await startRedis();
}, 30_000);
afterAll(() => r?.stop());

const BAD = Buffer.concat([Buffer.from('b:bad'), Buffer.from([0xff, 0xfe]), Buffer.from('utf\\é')]);
const token = () => randomBytes(16).toString('hex'); // redis-py's Lock: a 32-hex token
const set = (key: string | Buffer, value: string) => r.client.sendCommand(['SET', key, value, 'PX', '600000']);
const exists = async (key: string | Buffer) => Number(await r.client.sendCommand(['EXISTS', key]));
const storeOf = () => new RedisLockStore({ client: r.client, match: 'b:*', source: `redis://127.0.0.1:${r.port}/0` });

describe('names that are not UTF-8', () => {
  it('the escaped name stands for exactly the bytes, and only for bytes that are not UTF-8', () => {
    expect(keyName(BAD)).toBe('b:bad\\xff\\xfeutf\\\\é');
    for (let i = 0; i < 2_000; i++) {
      const b = randomBytes(1 + (i % 24));
      const name = keyName(b);
      const back = keyBytes(name);
      if (back) expect(back.equals(b), b.toString('hex')).toBe(true);
      else expect(name).toBe(b.toString('utf8')); // valid UTF-8: the name is the text
    }
    expect(keyBytes('plain\\text')).toBeNull();
    expect(keyBytes('caf\\xc3\\xa9')).toBeNull(); // "café" is UTF-8: never an escaped name
  });

  it('are listed escaped, found by status, and released by their exact bytes; neighbours untouched', async () => {
    await set(BAD, token());
    await set('b:good', token());
    const near = Buffer.concat([BAD, Buffer.from('2')]);
    await set(near, token());
    const page = await storeOf().list();
    const names = page.locks.map((l) => l.name);
    expect(names).toEqual(expect.arrayContaining(['b:good', keyName(BAD), keyName(near)]));
    const seen = (await storeOf().inspect(keyName(BAD)))!;
    expect(seen).toMatchObject({ name: keyName(BAD), releasable: true });
    const st = await runCli(['status', `redis://127.0.0.1:${r.port}/0`, keyName(BAD)], {});
    expect(st.code, st.stdout + st.stderr).toBe(0); // held, never "free" (10)
    const done = await storeOf().forceRelease({
      name: keyName(BAD),
      version: seen.version,
      operator: 'o',
      reason: 't',
    });
    expect(done.outcome).toBe('released');
    expect(await exists(BAD)).toBe(0);
    expect(await exists(near)).toBe(1);
    expect(await exists('b:good')).toBe(1);
    expect(await storeOf().inspect(keyName(BAD))).toBeNull(); // gone now: free is the truth
  }, 60_000);

  it('a key whose text looks escaped is read as that text, never as the bytes', async () => {
    const literal = 'b:lit\\xff';
    await set(literal, token());
    await set(Buffer.from([...Buffer.from('b:lit'), 0xff]), token());
    const v = (await storeOf().inspect(literal))!;
    const done = await storeOf().forceRelease({ name: literal, version: v.version, operator: 'o', reason: 't' });
    expect(done.outcome).toBe('released');
    expect(await exists(literal)).toBe(0);
    expect(await exists(Buffer.from([...Buffer.from('b:lit'), 0xff]))).toBe(1);
  });
});
