// One worker process of the mutual-exclusion checker: M critical sections on one lock, each fenced by its token.
import { Storage } from '@google-cloud/storage';
import { withLock } from '@/lib/lock';

const [endpoint, bucket, resource, worker, sections, ttl] = process.argv.slice(2);
const storage = new Storage({ apiEndpoint: endpoint!, projectId: 'fault', retryOptions: { autoRetry: false } });
const say = (event: Record<string, unknown>) => process.stdout.write(JSON.stringify({ worker, ...event }) + '\n');
const call = async (path: string, token: string) => {
  const res = await fetch(`${resource}/${path}?worker=${worker}&token=${token}`, { method: 'POST' });
  return res.ok;
};

for (let i = 0; i < Number(sections); i++) {
  try {
    await withLock(
      {
        storage,
        bucket: bucket!,
        name: 'locks/fault-check',
        identity: `${worker}:${process.pid}`,
        ttlMs: Number(ttl),
        refreshIntervalMs: Math.floor(Number(ttl) / 8),
      },
      async (lock) => {
        const start = Date.now();
        lock.assertHealthy();
        if (!(await call('begin', lock.generation))) return say({ rejected: 'begin' });
        for (let w = 0; w < 3; w++) {
          await new Promise((r) => setTimeout(r, 20 + Math.random() * 40));
          lock.assertHealthy(); // a paused process learns here that it lost the lock, before writing
          if (!(await call('write', lock.generation))) say({ rejected: 'write' });
        }
        await call('end', lock.generation);
        say({ section: i, token: lock.generation, start, end: Date.now() });
      },
    );
  } catch (err) {
    say({ error: (err as Error).message });
  }
}
say({ done: true });
