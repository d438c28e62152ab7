// A new webhook is not sent the first read's look-back (#62: a first burst of 10-minute-old events): a trail's
// records from before the webhook first joined that trail are not told to it, the ones after are; a console restarted
// with a webhook it had before (its marker beside the trail, on the GCS emulator) still tells it of the gap (within the
// look-back: the marker says the webhook was there, not since when).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '@/lib/lock/audit/record';
import type { Webhook } from '@/lib/server/notify/config';
import { Notifier } from '@/lib/server/notify/notifier';
import { sources } from '@/lib/server/sources';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { SECRET } from '../helpers/routes';
import { startReceiver, until, type Receiver } from './receiver';

let t: Target;
let r: Receiver;
const open: Notifier[] = [];
/** The trail as the notifiers read it: records placed at any time, in the past included. */
const trail: AuditRecord[] = [];

beforeAll(async () => {
  t = await startTestEmulator();
  Object.assign(process.env, {
    LOCKBOARD_BUCKET: t.bucket,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    LOCKBOARD_PREFIXES: 'locks/',
    LOCKBOARD_OPERATORS: 'ops@example.com',
    NEXTAUTH_SECRET: SECRET,
  });
  r = await startReceiver();
});
afterEach(() => open.splice(0).forEach((n) => void n.stop()));
afterAll(async () => {
  await r?.close();
  await t?.close();
});

const released = (id: string, agoMs: number): AuditRecord =>
  ({
    id,
    at: new Date(Date.now() - agoMs).toISOString(),
    event: 'force-released',
    lock: `locks/${id}`,
    operator: 'ops@example.com',
    reason: 'stuck',
  }) as AuditRecord;

function notifier(hook: Webhook): Notifier {
  const n = new Notifier({
    sources,
    config: () => ({ webhooks: [hook] }),
    readTrail: async (_trail, from, to) =>
      trail.filter((x) => Date.parse(x.at) >= from.getTime() && Date.parse(x.at) < to.getTime()),
    log: () => undefined,
    pollMs: 100,
  });
  open.push(n);
  n.start();
  return n;
}

const hook = (name: string): Webhook => ({
  name,
  url: r.url,
  format: 'json',
  events: ['force-released'],
  locks: ['*'],
  after: 600_000,
});
const told = () => r.received.map((x) => (JSON.parse(x.body) as { lock: { name: string } }).lock.name);

describe('a webhook joining', () => {
  it('is not told of the records before it joined, only of those after', async () => {
    trail.push(released('old-1', 8 * 60_000), released('old-2', 5 * 60_000));
    notifier(hook('new-hook'));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    trail.push(released('fresh', 0));
    await until(() => told().includes('locks/fresh'), 'the record after it joined');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(told()).toEqual(['locks/fresh']);
  });

  it('is told of the gap by a console restarted with it (its marker beside the trail)', async () => {
    await open.splice(0)[0]?.stop();
    r.received.length = 0;
    trail.push(released('in-the-gap', 3 * 60_000));
    notifier(hook('new-hook'));
    await until(() => told().includes('locks/in-the-gap'), 'the record of the gap');
    await new Promise((resolve) => setTimeout(resolve, 500));
    // the one told already is not told again (its claim)
    expect(told()).not.toContain('locks/fresh');
  });
});
