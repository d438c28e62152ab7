// The demo's background loops never end the demo: a round that throws is reported in one line (no stack, at most
// once a minute per loop) and tried again; a ZooKeeper nobody answers (a server slow to start, or gone) is such a
// failure, never an unhandled rejection.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { background, reportProblem, REPORT_EVERY_MS } from '@/lib/demo/background';
import { Stopper } from '@/lib/demo/stopper';
import { zookeeperHolders } from '@/lib/demo/zookeeper';
import { freePort } from '../helpers/browser';

afterEach(() => vi.restoreAllMocks());

const printed = () => {
  const lines: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
  return lines;
};

describe('a failing background loop', () => {
  it('is reported in one line without a stack, at most once a minute, with the count left out', () => {
    const lines = printed();
    const err = new Error('Cannot reach redis://127.0.0.1:1/0: connect ECONNREFUSED\n    at Socket.<anonymous>');
    reportProblem('test loop a', err, 1_000);
    reportProblem('test loop a', err, 2_000);
    reportProblem('test loop a', err, 3_000);
    reportProblem('test loop b', new Error('other'), 3_000);
    reportProblem('test loop a', err, 1_000 + REPORT_EVERY_MS);
    expect(lines).toEqual([
      'demo: test loop a: Cannot reach redis://127.0.0.1:1/0: connect ECONNREFUSED; retrying',
      'demo: test loop b: other; retrying',
      'demo: test loop a: Cannot reach redis://127.0.0.1:1/0: connect ECONNREFUSED; retrying (2 more since the last report)',
    ]);
  });

  it('keeps running after a round throws, and ends (never rejecting) at the stop', async () => {
    const lines = printed();
    const stop = new Stopper();
    let rounds = 0;
    const loop = background(
      'test loop c',
      stop,
      async () => {
        rounds++;
        throw new Error('boom');
      },
      20,
    );
    await expect.poll(() => rounds, { timeout: 2_000 }).toBeGreaterThan(3);
    stop.stop();
    await expect(loop).resolves.toBeUndefined();
    expect(lines).toEqual(['demo: test loop c: boom; retrying']);
  });
});

describe('the demo ZooKeeper contenders with no ZooKeeper answering', () => {
  it('report it and keep trying, with no unhandled rejection, and stop at once', async () => {
    const lines = printed();
    const rejections: unknown[] = [];
    const onRejection = (r: unknown) => rejections.push(r);
    process.on('unhandledRejection', onRejection);
    const stop = new Stopper();
    try {
      const port = await freePort(); // nothing listens there
      const loops = zookeeperHolders(`zookeeper://127.0.0.1:${port}/`, stop);
      // each contender's connect gives up after 5 s: reported, then retried
      await expect.poll(() => lines.length, { timeout: 15_000, interval: 200 }).toBe(3);
      expect(lines[0]).toMatch(
        new RegExp(
          `^demo: ZooKeeper contender deployer-\\d: Cannot reach zookeeper://127\\.0\\.0\\.1:${port}/.*; retrying$`,
        ),
      );
      const stopped = Date.now();
      stop.stop();
      await Promise.race([Promise.all(loops), new Promise((r) => setTimeout(r, 8_000))]);
      expect(Date.now() - stopped).toBeLessThan(7_000);
    } finally {
      stop.stop();
      process.off('unhandledRejection', onRejection);
    }
    expect(rejections).toEqual([]);
  }, 30_000);
});
