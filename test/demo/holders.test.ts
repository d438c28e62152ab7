// The demo's simulated holders: all of them at once, as `npm run demo` starts them, with no abort listener piling up
// on a shared signal (Node's MaxListenersExceededWarning), and every loop ending when the demo stops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHolders } from '@/lib/demo/holders';
import { PLATFORM_BUCKET } from '@/lib/demo/platform';
import { listLocks } from '@/lib/lock';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { delay } from '../helpers/requests';

let t: Target;
beforeAll(async () => {
  t = await startTestEmulator({ buckets: ['lockboard-demo', PLATFORM_BUCKET] });
});
afterAll(() => t.close());

describe('demo holders', () => {
  it('run together without a MaxListenersExceededWarning and stop with nothing left held', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const holders = await startHolders(t.storage, 'lockboard-demo', { speed: 4 });
      await delay(4_000); // contenders waiting, workers sleeping, the crashing holder's child process running
      // the four contenders hand the lock on: between a release and the next waiter's read it is briefly absent
      const names = async () =>
        (await listLocks({ storage: t.storage, bucket: 'lockboard-demo', prefix: 'locks/' })).locks.map((l) => l.name);
      await expect.poll(names, { timeout: 5_000, interval: 100 }).toContain('locks/db-migrations');
      const stopped = Date.now();
      await holders.stop();
      expect(Date.now() - stopped).toBeLessThan(10_000);
      await delay(100); // warnings are emitted on the next tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => /MaxListeners/.test(w))).toEqual([]);
    const after = await listLocks({ storage: t.storage, bucket: 'lockboard-demo', prefix: 'locks/' });
    // only the crashed holder's lock (left behind by design) and foreign formats may remain
    expect(after.locks.filter((l) => l.format === 'lockboard' && l.name !== 'locks/nightly-report')).toEqual([]);
  }, 30_000);
});
