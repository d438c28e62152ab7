// Webhooks end to end on the GCS emulator: a lock force-released through the console's store, its trail read by
// notifiers (one per "replica"), delivered to a local receiver, signed, once; a webhook that joins is told of the
// records after it joined (and of a restart's gap), never of the first read's look-back before it.
import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock } from '@/lib/lock';
import type { AuditRecord } from '@/lib/lock/audit/record';
import type { Webhook } from '@/lib/server/notify/config';
import { Notifier } from '@/lib/server/notify/notifier';
import { sources } from '@/lib/server/sources';
import { storeFor } from '@/lib/server/stores';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { freezeHolder } from '../helpers/lock';
import { SECRET } from '../helpers/routes';
import { startReceiver, until, type Receiver } from './receiver';

let t: Target;
const open: { stop(): void }[] = [];
const receivers: Receiver[] = [];

beforeAll(async () => {
  t = await startTestEmulator();
  Object.assign(process.env, {
    LOCKBOARD_BUCKET: t.bucket,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    LOCKBOARD_PREFIXES: 'locks/',
    LOCKBOARD_OPERATORS: 'ops@example.com',
    NEXTAUTH_SECRET: SECRET,
    NEXTAUTH_URL: 'https://lockboard.example',
  });
});
afterEach(async () => {
  for (const n of open.splice(0)) n.stop();
  for (const r of receivers.splice(0)) await r.close();
});
afterAll(() => t.close());

async function receiver(o: { https?: boolean } = {}) {
  const r = await startReceiver(o);
  receivers.push(r);
  return r;
}

function notifier(hooks: Webhook[], o: Partial<ConstructorParameters<typeof Notifier>[0]> = {}) {
  const n = new Notifier({
    sources,
    config: () => ({ webhooks: hooks }),
    linkBase: 'https://lockboard.example',
    retry: { baseDelayMs: 20 },
    log: () => undefined,
    pollMs: 250, // as in production, each replica reads again on its own (a slow read under load is retried)
    ...o,
  });
  open.push(n);
  n.start();
  return n;
}

const hook = (name: string, url: string, locks: string[], extra: Partial<Webhook> = {}): Webhook => ({
  name,
  url,
  format: 'json',
  events: ['force-released', 'release-refused', 'taken-over', 'deleted-outside', 'holder-gone'],
  locks,
  after: 600_000,
  secret: 'webhook-secret-0123456789',
  ...extra,
});

/** A lock taken, then force-released through the console's store as the release route does. */
async function forceRelease(name: string): Promise<number> {
  await acquireLock({
    storage: t.storage,
    bucket: t.bucket,
    name,
    identity: 'runner-7',
    ttlMs: 60_000,
    refreshIntervalMs: 20_000,
  });
  const store = await storeFor(sources()[0]!);
  const view = (await store.inspect(name))!;
  const started = performance.now();
  const r = await store.forceRelease({
    name,
    version: view.version,
    reason: 'stuck apply',
    operator: 'ops@example.com',
  });
  expect(r.outcome).toBe('released');
  return performance.now() - started;
}

describe('webhooks from the audit trail', () => {
  it('sends one signed JSON message per force-release, with the lock, who, why and a link', async () => {
    const r = await receiver();
    const n = notifier([hook('one', r.url, ['gs://test-bucket/locks/one-*'])]);
    await forceRelease('locks/one-a');
    await n.poll();
    await until(() => r.received.length === 1, 'one delivery');
    await n.poll();
    await new Promise((ok) => setTimeout(ok, 200));
    expect(r.received).toHaveLength(1);
    const { headers, body } = r.received[0]!;
    const expected = createHmac('sha256', 'webhook-secret-0123456789').update(body).digest('hex');
    expect(headers['x-lockboard-signature']).toBe(`sha256=${expected}`);
    const payload = JSON.parse(body) as Record<string, unknown>;
    expect(payload).toMatchObject({
      event: 'force-released',
      lock: {
        address: 'gs://test-bucket/locks/one-a',
        source: 'gs://test-bucket/locks/',
        name: 'locks/one-a',
        store: 'gcs',
      },
      actor: 'ops@example.com',
      reason: 'stuck apply',
      outcome: 'released',
      verdict: null,
      link: 'https://lockboard.example/locks/locks/one-a?bucket=test-bucket',
    });
    expect(payload.id).toMatch(/^[0-9a-f]{32}$/);
    expect(headers['x-lockboard-delivery']).toBe(payload.id);
  });

  it('delivers each event once from two replicas on one store', async () => {
    const r = await receiver();
    const hooks = [hook('both', r.url, ['gs://test-bucket/locks/two-*'])];
    const [a, b] = [notifier(hooks), notifier(hooks)];
    await forceRelease('locks/two-a');
    await forceRelease('locks/two-b');
    await Promise.all([a.poll(), b.poll()]);
    await until(() => r.received.length >= 2, 'two deliveries');
    await Promise.all([a.poll(), b.poll()]);
    await new Promise((ok) => setTimeout(ok, 300));
    const names = r.received.map((x) => (JSON.parse(x.body) as { lock: { name: string } }).lock.name).sort();
    expect(names).toEqual(['locks/two-a', 'locks/two-b']);
  });

  it('retries a receiver that answers 500 twice and delivers on the third attempt', async () => {
    const r = await receiver();
    r.script.push(500, 500);
    const n = notifier([hook('flaky', r.url, ['gs://test-bucket/locks/flaky'])]);
    await forceRelease('locks/flaky');
    await n.poll();
    await until(() => n.deliveries.recent('flaky')[0]?.status === 'delivered', 'delivered');
    expect(r.received).toHaveLength(3);
    expect(n.deliveries.recent('flaky')[0]).toMatchObject({ attempts: 3, httpStatus: 200 });
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
  });

  it('waits as long as a 429 asks (Retry-After) before trying again', async () => {
    const r = await receiver();
    r.script.push({ status: 429, headers: { 'retry-after': '1' } });
    const n = notifier([hook('busy', r.url, ['gs://test-bucket/locks/busy'])]);
    await forceRelease('locks/busy');
    await until(() => n.deliveries.recent('busy')[0]?.status === 'delivered', 'delivered after the wait');
    expect(r.received).toHaveLength(2);
    expect(r.received[1]!.at - r.received[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('does not retry a 404, and says so on the page and in the log, naming the host only', async () => {
    const r = await receiver();
    r.script.push(404);
    const lines: string[] = [];
    const n = notifier([hook('wrong', r.url, ['gs://test-bucket/locks/wrong'])], { log: (l) => lines.push(l) });
    await forceRelease('locks/wrong');
    await n.poll();
    await until(() => n.deliveries.recent('wrong')[0]?.status === 'failed', 'failed');
    expect(r.received).toHaveLength(1);
    expect(n.deliveries.recent('wrong')[0]!.lastError).toBe(`${new URL(r.url).host} answered 404`);
    expect(lines.join('\n')).toMatch(/webhook wrong \(127\.0\.0\.1:\d+\) failed force-released/);
    expect(lines.join('\n')).not.toMatch(/SECRET-TOKEN|webhook-secret/);
  });

  it('never follows a redirect to another host', async () => {
    const r = await receiver();
    r.script.push({ status: 307, headers: { location: 'https://elsewhere.example/steal' } });
    const n = notifier([hook('moved', r.url, ['gs://test-bucket/locks/moved'])]);
    await forceRelease('locks/moved');
    await n.poll();
    await until(() => n.deliveries.recent('moved')[0]?.status === 'failed', 'failed');
    expect(n.deliveries.recent('moved')[0]).toMatchObject({
      attempts: 1,
      httpStatus: 307,
      lastError: 'redirected to elsewhere.example: redirects are not followed',
    });
    expect(r.received).toHaveLength(1);
  });

  it('tells a stale lock taken over by a new holder', async () => {
    const r = await receiver();
    const n = notifier([hook('takeover', r.url, ['gs://test-bucket/locks/takeover'], { events: ['taken-over'] })]);
    const base = { storage: t.storage, bucket: t.bucket, name: 'locks/takeover' };
    const old = await acquireLock({ ...base, identity: 'runner-old', ttlMs: 1_000, refreshIntervalMs: 300 });
    freezeHolder(old);
    await new Promise((ok) => setTimeout(ok, 1_500));
    await acquireLock({ ...base, identity: 'runner-new', ttlMs: 60_000, refreshIntervalMs: 20_000, timeoutMs: 5_000 });
    await n.poll();
    await until(() => r.received.length === 1, 'the takeover');
    expect(JSON.parse(r.received[0]!.body)).toMatchObject({
      event: 'taken-over',
      actor: 'runner-new',
      outcome: 'took-over',
      reason: expect.stringMatching(/^took over from runner-old/),
      // Lockboard's own lock; a trail record carries no verdict (only holder-gone has one, from the console's)
      lock: { name: 'locks/takeover', store: 'gcs', format: 'lockboard' },
      verdict: null,
      sentence: null,
    });
  });

  it('times out a hanging receiver and retries, while releases go on unaffected', async () => {
    const r = await receiver();
    r.script.push('hang');
    const n = notifier([hook('slow', r.url, ['gs://test-bucket/locks/slow-*'])], { attempt: { timeoutMs: 300 } });
    await forceRelease('locks/slow-a');
    await n.poll();
    await until(() => r.received.length === 1, 'the first attempt');
    expect(await forceRelease('locks/slow-b')).toBeLessThan(2_000);
    await until(
      () => n.deliveries.recent('slow').find((d) => d.lock.endsWith('slow-a'))?.status === 'delivered',
      'retried',
    );
    const first = n.deliveries.recent('slow').find((d) => d.lock.endsWith('slow-a'))!;
    expect(first.attempts).toBe(2);
  });

  it('sends nothing for a lock its locks globs exclude', async () => {
    const r = await receiver();
    const n = notifier([hook('other', r.url, ['gs://test-bucket/locks/prod/*'])]);
    await forceRelease('locks/staging-x');
    await n.poll();
    await new Promise((ok) => setTimeout(ok, 300));
    expect(r.received).toHaveLength(0);
  });

  it('sends a Slack message over HTTPS to a receiver with its own certificate', async () => {
    const r = await receiver({ https: true });
    const n = notifier([hook('slack', r.url, ['gs://test-bucket/locks/tls'], { format: 'slack' })], {
      attempt: { ca: r.cert! },
    });
    await forceRelease('locks/tls');
    await n.poll();
    await until(() => r.received.length === 1, 'an HTTPS delivery');
    const message = JSON.parse(r.received[0]!.body) as { text: string; blocks: unknown[] };
    expect(message.text).toBe('Lock force-released: `gs://test-bucket/locks/tls`');
  });

  it('tells a holder gone for `after` once, whatever the replicas', async () => {
    const r = await receiver();
    const hooks = [hook('gone', r.url, ['gs://test-bucket/locks/gone'], { events: ['holder-gone'], after: 1_000 })];
    const [a, b] = [notifier(hooks), notifier(hooks)];
    const source = sources()[0]!;
    const view = {
      name: 'locks/gone',
      version: '7.1',
      identity: 'runner-9',
      verdict: 'gone',
      sentence: 'pid 4242 has exited',
    };
    for (const n of [a, b]) n.holders.observe(source, [view], Date.now());
    await Promise.all([a.poll(), b.poll()]);
    expect(r.received).toHaveLength(0); // not yet: gone for less than `after`
    await new Promise((ok) => setTimeout(ok, 1_100));
    for (const n of [a, b]) n.holders.observe(source, [view], Date.now());
    await Promise.all([a.poll(), b.poll()]);
    await until(() => r.received.length === 1, 'one holder-gone');
    await Promise.all([a.poll(), b.poll()]);
    await new Promise((ok) => setTimeout(ok, 200));
    expect(r.received).toHaveLength(1);
    expect(JSON.parse(r.received[0]!.body)).toMatchObject({
      event: 'holder-gone',
      verdict: 'gone',
      sentence: 'pid 4242 has exited',
      actor: 'runner-9',
    });
  });

  it('tells a gone holder whose claim failed on a later pass (it is marked told only once claimed)', async () => {
    const r = await receiver();
    const hooks = [hook('gone', r.url, ['gs://test-bucket/locks/flaky'], { events: ['holder-gone'], after: 0 })];
    const n = new Notifier({ sources, config: () => ({ webhooks: hooks }), log: () => undefined }); // passes run here
    open.push(n);
    const view = { name: 'locks/flaky', version: '8.1', identity: 'runner-7', verdict: 'gone', sentence: 'gone' };
    n.holders.observe(sources()[0]!, [view], Date.now());
    const claims = async () =>
      (await t.storage.bucket(t.bucket).getFiles({ prefix: '.lockboard/audit/claims/' }))[0].length;
    const before = await claims();
    // the claim's create is refused (the store answers 503) on the first pass
    t.emulator!.faults.set({ rules: [{ method: 'POST', query: 'claims', errorRate: 1, errorStatus: 503 }] });
    try {
      await n.poll();
      expect(n.queue.size).toBe(0);
      expect(await claims()).toBe(before); // nothing claimed
    } finally {
      t.emulator!.faults.clear();
    }
    await n.poll(); // the claim made now: told, once
    await until(() => r.received.length === 1, 'the gone holder told');
    await n.poll();
    await new Promise((ok) => setTimeout(ok, 200));
    expect(r.received).toHaveLength(1);
  });
});

// #62: a new webhook was sent the first read's look-back at once (a burst of 10-minute-old events)
describe('a webhook joining a trail', () => {
  /** The trail as the notifiers read it: records placed at any time, in the past included. */
  const trail: AuditRecord[] = [];
  const released = (id: string, agoMs: number) =>
    ({
      id,
      at: new Date(Date.now() - agoMs).toISOString(),
      event: 'force-released',
      lock: `locks/joined-${id}`,
      operator: 'ops@example.com',
      reason: 'stuck',
    }) as AuditRecord;
  const readTrail = async (_trail: unknown, from: Date, to: Date) =>
    trail.filter((x) => Date.parse(x.at) >= from.getTime() && Date.parse(x.at) < to.getTime());
  const told = (r: { received: { body: string }[] }) =>
    r.received.map((x) => (JSON.parse(x.body) as { lock: { name: string } }).lock.name);
  // one receiver for both: the same webhook (name and URL) before and after the restart
  let r: Receiver;
  beforeAll(async () => {
    r = await startReceiver();
  });
  afterAll(() => r?.close());

  it('is not told of the records before it joined, only of those after', async () => {
    trail.push(released('old-1', 8 * 60_000), released('old-2', 5 * 60_000));
    notifier([hook('joining', r.url, ['*'])], { readTrail, pollMs: 100 });
    await new Promise((ok) => setTimeout(ok, 1_000));
    trail.push(released('fresh', 0));
    await until(() => told(r).includes('locks/joined-fresh'), 'the record after it joined');
    await new Promise((ok) => setTimeout(ok, 500));
    expect(told(r)).toEqual(['locks/joined-fresh']);
  });

  it('is told of the gap by a console restarted with it (its marker beside the trail), each record once', async () => {
    r.received.length = 0;
    // the earlier notifier stopped (afterEach); a record written while no console ran
    trail.push(released('in-the-gap', 3 * 60_000));
    notifier([hook('joining', r.url, ['*'])], { readTrail, pollMs: 100 });
    await until(() => told(r).includes('locks/joined-in-the-gap'), 'the record of the gap');
    await new Promise((ok) => setTimeout(ok, 500));
    expect(told(r)).not.toContain('locks/joined-fresh'); // told already: its claim
  });
});
