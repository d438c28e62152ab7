// Another console replica for test/notify/replicas.test.ts, in a process of its own (`node --conditions=react-server
// --import tsx`): a Notifier over LOCKBOARD_SOURCES telling one webhook (argv: its URL), until SIGTERM. After each
// pass over the trails it prints `pass <n> <messages queued or being sent> <messages it delivered>`.
import { Notifier } from '@/lib/server/notify/notifier';
import { sources } from '@/lib/server/sources';

const url = process.argv[2]!;
const webhook = {
  name: 'team',
  url,
  format: 'json' as const,
  events: ['force-released' as const, 'release-refused' as const],
  locks: ['redis://*'],
  after: 600_000,
  secret: 'webhook-secret-0123456789',
};
const n = new Notifier({
  sources,
  config: () => ({ webhooks: [webhook] }),
  pollMs: 100,
  retry: { baseDelayMs: 20 },
  log: (line) => console.error(line),
});
process.on('SIGTERM', () => {
  n.stop();
  process.exit(0);
});
for (let pass = 1; ; pass++) {
  await n.poll();
  const delivered = n.deliveries.recent('team').filter((d) => d.status === 'delivered').length;
  console.log(`pass ${pass} ${n.queue.size} ${delivered}`);
  await new Promise((ok) => setTimeout(ok, 100));
}
