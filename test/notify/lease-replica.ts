// A console replica for test/notify/takeover.test.ts, in a process of its own (`node --conditions=react-server --import
// tsx`): a Notifier over the sources of its environment telling one webhook (argv: its URL, the lease in ms, the delay
// between attempts in ms), until it is killed. It prints `owner <id>` first, then `pass <n> <queued> <attempts made>`
// after each pass.
import { Notifier } from '@/lib/server/notify/notifier';
import { sources } from '@/lib/server/sources';

const [url, leaseMs, delayMs] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4] ?? 200)];
const n = new Notifier({
  sources,
  config: () => ({
    webhooks: [
      { name: 'team', url, format: 'json', events: ['force-released'], after: 600_000, secret: 'webhook-secret-0123' },
    ],
  }),
  pollMs: 100,
  leaseMs,
  retry: { baseDelayMs: delayMs, maxDelayMs: 2 * delayMs },
  log: (line) => console.error(line),
});
console.log(`owner ${n.owner}`);
n.start();
for (let pass = 1; ; pass++) {
  await n.poll();
  const attempts = n.queue.jobs().reduce((sum, j) => sum + j.attempts, 0);
  console.log(`pass ${pass} ${n.queue.size} ${attempts}`);
  await new Promise((ok) => setTimeout(ok, 100));
}
