// Change → on screen: for each store, a change made outside the consoles (or through the other console) and the time
// until both consoles' pages show it (a DOM mutation in Chromium). Acquire and release are Lockboard's own lock on
// each store; a refresh is a native write that moves the version or expiry; the force-release goes through console B
// and is timed on console A, which hears of it only through its own watcher.
import { randomBytes } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { Page } from 'playwright-core';
import { acquireOn } from '@/lib/lock/stores';
import { s3ClientFor } from '../helpers/s3';
import type { LiveWorld } from './live-setup';
import { quantile, round } from './report';

type Store = keyof LiveWorld['sources'];
const sel = (name: string) => `[data-lock*="${name}"]`;

/** Resolves with ms since `t0` once `page` satisfies `test` on the row containing `name` (checked every frame). */
async function seen(page: Page, name: string, test: 'present' | 'absent' | { attr: string; not: string }, t0: number) {
  await page.waitForFunction(
    ([s, t]) => {
      const row = document.querySelector(s as string);
      if (t === 'present') return Boolean(row);
      // released: gone, or kept as a released marker (Lockboard's S3 lock keeps its object, marked free)
      if (t === 'absent') return !row || row.getAttribute('data-health') === 'free';
      const { attr, not } = t as { attr: string; not: string };
      return Boolean(row && row.getAttribute(attr) !== not);
    },
    [sel(name), test] as const,
    { polling: 'raf', timeout: 30_000 },
  );
  return performance.now() - t0;
}

const attr = (page: Page, name: string, a: string) =>
  page
    .locator(sel(name))
    .first()
    .getAttribute(a)
    .then((v) => v ?? '');

/** A native refresh per store: a write that moves what the page shows (version or expiry); null where none exists. */
function refresher(w: LiveWorld, store: Store, i: number) {
  const s3 = s3ClientFor(w.emulator.s3!.url);
  const name = `native-${i}`;
  switch (store) {
    case 'gcs': {
      const file = w.storage.bucket('live').file(`locks/${name}`);
      return {
        name,
        create: () =>
          file.save('', { resumable: false, metadata: { metadata: { lock_owner: `w-${i}`, expires_sec: '600' } } }),
        refresh: () => file.setMetadata({ metadata: { refreshed: String(Date.now()) } }),
        attr: 'data-version',
      };
    }
    case 's3':
      return {
        name,
        create: () => s3.send(new PutObjectCommand({ Bucket: 'live-s3', Key: `locks/${name}`, Body: 'lock' })),
        refresh: () => s3.send(new PutObjectCommand({ Bucket: 'live-s3', Key: `locks/${name}`, Body: '1' })),
        attr: 'data-version',
      };
    case 'redis':
      return {
        name,
        // go-redsync's token: 16 random bytes, base64
        create: () =>
          w.redis.client.sendCommand(['SET', `lock:${name}`, randomBytes(16).toString('base64'), 'PX', '30000']),
        refresh: () => w.redis.client.sendCommand(['PEXPIRE', `lock:${name}`, '90000']),
        attr: 'data-expires',
      };
    default:
      return null; // an advisory lock has no refresh
  }
}

export async function measureChanges(w: LiveWorld, pages: Record<string, [Page, Page]>, rounds: number) {
  const rows: Record<string, string | number>[] = [];
  const cookie = await w.cookie();
  for (const store of Object.keys(w.sources) as Store[]) {
    const source = w.sources[store];
    const [a, b] = pages[store]!;
    const times: Record<string, number[]> = { acquire: [], refresh: [], release: [], 'force-release via B': [] };
    for (let i = 0; i < rounds; i++) {
      const name = `bench-${Date.now().toString(36)}-${i}`;
      const ctl = new AbortController();
      const lockName = store === 'redis' ? `lock:${name}` : name;
      let t0 = performance.now();
      const held = await acquireOn(w.spec(source), lockName, {
        env: w.env,
        role: 'cli',
        ttlMs: 30_000,
        signal: ctl.signal,
      });
      t0 = performance.now();
      times.acquire!.push(...(await Promise.all([seen(a, name, 'present', t0), seen(b, name, 'present', t0)])));
      t0 = performance.now();
      await held.releaseWith({ outcome: 'ok' });
      times.release!.push(...(await Promise.all([seen(a, name, 'absent', t0), seen(b, name, 'absent', t0)])));

      const victim = `${name}-f`;
      const second = await acquireOn(w.spec(source), store === 'redis' ? `lock:${victim}` : victim, {
        env: w.env,
        role: 'cli',
        ttlMs: 30_000,
        signal: new AbortController().signal,
      });
      await seen(a, victim, 'present', performance.now());
      const row = a.locator(sel(victim)).first();
      const [full, version] = [(await row.getAttribute('data-lock'))!, (await row.getAttribute('data-version'))!];
      t0 = performance.now();
      const res = await fetch(`${w.consoles[1].url}/api/locks/release`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', origin: w.consoles[1].url },
        body: JSON.stringify({ source, name: full, version, reason: 'live bench' }),
      });
      if (!res.ok) throw new Error(`force-release through console B: ${res.status} ${await res.text()}`);
      times['force-release via B']!.push(await seen(a, victim, 'absent', t0));
      void second.releaseWith({ outcome: 'ok' }).catch(() => undefined);

      const r = refresher(w, store, i);
      if (r) {
        await r.create();
        await seen(a, r.name, 'present', performance.now());
        await seen(b, r.name, 'present', performance.now());
        const [va, vb] = [await attr(a, r.name, r.attr), await attr(b, r.name, r.attr)];
        t0 = performance.now();
        await r.refresh();
        times.refresh!.push(
          ...(await Promise.all([
            seen(a, r.name, { attr: r.attr, not: va }, t0),
            seen(b, r.name, { attr: r.attr, not: vb }, t0),
          ])),
        );
      }
    }
    for (const [change, ms] of Object.entries(times)) {
      rows.push({
        store,
        change,
        samples: ms.length,
        p50: ms.length ? round(quantile(ms, 0.5), 0) : 'n/a',
        p95: ms.length ? round(quantile(ms, 0.95), 0) : 'n/a',
        max: ms.length ? round(Math.max(...ms), 0) : 'n/a',
      });
    }
  }
  return rows;
}
