// The demo's stop: every step runs even when one throws (dynalite's "Database is not open" during the stop once
// skipped the rest and left the servers running), in its phase order, and an error while stopping is only reported.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runSteps, Shutdown } from '@/lib/demo/shutdown';

afterEach(() => vi.restoreAllMocks());

describe('the demo stop', () => {
  it('runs every step, each on its own: one that throws or rejects is reported in one line', async () => {
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.join(' ')));
    const ran: string[] = [];
    await runSteps([
      { name: 'DynamoDB', run: () => Promise.reject(new Error('Database is not open\n    at scan')) },
      { name: 'Redis', run: () => void ran.push('Redis') },
      {
        name: 'etcd',
        run: () => {
          throw new Error('boom');
        },
      },
      { name: 'ZooKeeper', run: async () => void ran.push('ZooKeeper') },
    ]);
    expect(ran).toEqual(['Redis', 'ZooKeeper']);
    expect(errors.sort()).toEqual(['demo: stopping DynamoDB: Database is not open', 'demo: stopping etcd: boom']);
  });

  it('stops the console first, the emulator last, kills what is left, and exits once with its code', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.join(' ')));
    const exited = new Promise<number | undefined>((resolve) =>
      vi.spyOn(process, 'exit').mockImplementation(((code?: number) => resolve(code)) as never),
    );
    const order: string[] = [];
    const life = new Shutdown();
    life.add('the emulator', () => void order.push('emulator'), { phase: 2 });
    life.add('the servers', () => Promise.reject(new Error('Database is not open')), {
      kill: () => void order.push('kill servers'),
    });
    life.add('the holders', async () => void order.push('holders'));
    life.add('the console', () => void order.push('console'), { phase: 0 });
    void life.stop(0);
    life.crashed(new Error('ModuleError: Database is not open')); // while stopping: reported, no second stop
    expect(await exited).toBe(0);
    expect(order).toEqual(['console', 'holders', 'emulator', 'kill servers']);
    expect(errors).toContain('demo: stopping the servers: Database is not open');
    expect(errors).toContain('demo: while stopping: ModuleError: Database is not open');
    expect(process.exit).toHaveBeenCalledTimes(1);
  });
});
