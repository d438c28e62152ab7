// A row's verdict figures move on an open page (#63): the window's row carries its sentence with the moving figures as
// marks (lib/lock/verdict/figures.ts) and the page renders them from the row's times on every tick of its clock, so
// "its TTL (599 s left)" counts down with no new stream message, where it used to stay at the figure of the read.
// A real Redis with keyspace notifications on: a redis-py lock seen once stays as it is between the console's checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserConsole, type BrowserConsole } from '../helpers/console-browser';
import { startRedis, type TestRedis } from '../helpers/redis';

let r: TestRedis;
let c: BrowserConsole;
const NAME = 'tick:lock';

beforeAll(async () => {
  r = await startRedis(['--notify-keyspace-events', 'Kg$hx']);
  await r.client.sendCommand(['SET', NAME, 'a'.repeat(32), 'PX', '600000']); // redis-py's shape: a 32-hex token
  c = await startBrowserConsole({ LOCKBOARD_SOURCES: `redis://127.0.0.1:${r.port}/0` });
}, 600_000);

afterAll(async () => {
  await c?.close();
  await r?.stop();
});

/** The seconds left the sentence names: "its TTL (599 s left)", or "it expires in 570 s" once read twice. */
function leftIn(sentence: string | null): number {
  const m = /\((\d+) s left\)|expires in (\d+) s/.exec(sentence ?? '');
  return Number(m?.[1] ?? m?.[2] ?? Number.NaN);
}

type Seen = { sentence: string | null; events: string[] };

describe("a row's verdict on an open page", () => {
  it('counts its figures down from the row’s times, with no stream message between', async () => {
    const context = await c.contextAs('viewer@demo.lockboard');
    // every stream message the page receives, by event type
    await context.addInitScript(() => {
      const events: string[] = [];
      Object.assign(window, { streamEvents: events });
      const add = EventSource.prototype.addEventListener;
      EventSource.prototype.addEventListener = function (this: EventSource, type: string, fn: unknown, o?: unknown) {
        const wrapped = (e: Event) => (events.push(type), (fn as (e: Event) => void).call(this, e));
        return add.call(this, type, wrapped as EventListener, o as AddEventListenerOptions);
      } as typeof EventSource.prototype.addEventListener;
    });
    const page = await context.newPage();
    await page.goto(`${c.app.url}/locks?source=${encodeURIComponent(`redis://127.0.0.1:${r.port}/0`)}`);
    const badge = page.locator(`[data-lock="${NAME}"] [data-verdict]`).first();
    await expect
      .poll(() => badge.getAttribute('title'), { timeout: 30_000 })
      .toMatch(/^Unknown: .*(s left\)|expires in \d+ s)/);
    const seen = async (): Promise<Seen> => ({
      sentence: await badge.getAttribute('title'),
      events: await page.evaluate(() => [...(window as unknown as { streamEvents: string[] }).streamEvents]),
    });
    // seconds in which the page hears nothing from its stream (its keep-alive comes every 15 s; a second read of the
    // lock may change its words once): the sentence must move all the same
    let quiet: [Seen, Seen] | undefined;
    for (let i = 0; i < 6 && !quiet; i++) {
      const before = await seen();
      await page.waitForTimeout(3_500);
      const after = await seen();
      if (after.events.length === before.events.length) quiet = [before, after];
    }
    expect(quiet, 'a quiet stretch of 3.5 s on the stream').toBeDefined();
    const [before, after] = quiet!;
    expect(before.events.length).toBeGreaterThan(0); // the snapshot came by the stream
    expect(leftIn(before.sentence) - leftIn(after.sentence)).toBeGreaterThanOrEqual(2);
    expect(leftIn(before.sentence) - leftIn(after.sentence)).toBeLessThanOrEqual(5);
    expect(after.sentence!.replace(/\d+ s/g, 'N s')).toBe(before.sentence!.replace(/\d+ s/g, 'N s'));
    await context.close();
  });
});
