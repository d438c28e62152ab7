// The console in real Chromium against a production build on the emulator.
import { readFileSync } from 'node:fs';
import { encode } from 'next-auth/jwt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, getLock, withLock, type Lock } from '@/lib/lock';
import { buildConsole, needsBuild, startConsole, type ConsoleProcess } from '@/lib/demo/console';
import { ARTIFACTS, freePort, launchBrowser } from '../helpers/browser';
import { crashedHolder } from '../helpers/crash';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { fuzzPosts } from '../helpers/fuzz';
import { delay } from '../helpers/requests';

let t: Target;
let app: ConsoleProcess;
let browser: Browser;
const held: Lock[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  if (needsBuild()) buildConsole();
  t = await startTestEmulator();
  const base = { storage: t.storage, bucket: t.bucket };
  held.push(
    await acquireLock({
      ...base,
      name: 'locks/healthy',
      identity: 'web-1:100:aaaa0001',
      ttlMs: 6000,
      refreshIntervalMs: 700,
      purpose: 'serving',
    }),
  );
  await crashedHolder(t.emulator!.url, t.bucket, 'locks/expired', 1000);
  await t.storage
    .bucket(t.bucket)
    .file('locks/state.tflock')
    .save(JSON.stringify({ ID: 'x', Operation: 'OperationTypeApply', Who: 'ann@laptop' }), {
      resumable: false,
      preconditionOpts: { ifGenerationMatch: 0 },
    });
  // A known history for the timeline and the churn page: a clean run, a failed run, a crash taken over.
  await withLock({ ...base, name: 'locks/history', identity: 'first-holder' }, async () => delay(50));
  await withLock({ ...base, name: 'locks/history', identity: 'second-holder' }, async () => {
    throw new Error('disk full');
  }).catch(() => {});
  await crashedHolder(t.emulator!.url, t.bucket, 'locks/history', 1000);
  await delay(1200);
  await withLock({ ...base, name: 'locks/history', identity: 'rescuer' }, async () => delay(50));
  // 10 000 locks under another prefix, written straight into the emulator's store
  const now = Date.now();
  for (let i = 0; i < 10_000; i++) {
    const metadata = {
      identity: `bulk-${i}`,
      ttl_ms: '600000',
      refresh_ms: '75000',
      format: 'lockboard/1',
      expires_at: String(now / 1000 + 600),
    };
    t.emulator!.store.insertObject(
      t.bucket,
      `bulk/lock-${String(i).padStart(5, '0')}`,
      Buffer.from('{}'),
      { metadata },
      {},
      now,
    );
  }
  app = await startConsole(await freePort(), {
    LOCKBOARD_DEMO: '1',
    LOCKBOARD_BUCKET: t.bucket,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    LOCKBOARD_PREFIXES: 'locks/,bulk/',
    NEXTAUTH_SECRET: 'e2e-secret-0123456789abcdef',
  });
}, 180_000);

afterAll(async () => {
  await Promise.allSettled(held.map((l) => l.release()));
  await app?.stop();
  await browser?.close();
  await t?.close();
});

/** Content Security Policy violations reported by any page the tests open (checked by the last test). */
const cspViolations: string[] = [];

async function openPage(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) cspViolations.push(`${page.url()}: ${msg.text()}`);
  });
  return page;
}

async function signIn(email: string, password: string): Promise<Page> {
  const page = await openPage();
  await page.goto(`${app.url}/login`);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
  await page.waitForURL('**/locks');
  // the console lands on all sources (the 10 000 bulk/ locks sort first): these tests read the seeded locks/ source
  await page.goto(`${app.url}/locks?prefix=locks%2F`);
  await page.waitForSelector('[data-lock="locks/healthy"]');
  return page;
}

const row = (page: Page, name: string) => page.locator(`[data-lock="${name}"]`);

const SECRET_FOR_STARTUP = 'e2e-secret-0123456789abcdef';

describe('console in Chromium', () => {
  it('sends anonymous visitors to the sign-in page', async () => {
    const page = await openPage();
    await page.goto(`${app.url}/locks`);
    await page.waitForURL('**/login?callbackUrl=%2Flocks');
    expect(await page.textContent('h1')).toMatch(/Sign in to Lockboard/);
    expect(await page.textContent('body')).toMatch(/operator@demo\.lockboard/);
    await page.close();
  });

  it('shows the seeded locks with their health to an operator', async () => {
    const page = await signIn('operator@demo.lockboard', 'operator');
    expect(await row(page, 'locks/healthy').locator('[data-health]').getAttribute('data-health')).toBe('healthy');
    await page.waitForSelector('[data-lock="locks/expired"] [data-health="expired"]', { timeout: 10_000 });
    expect(await row(page, 'locks/state.tflock').locator('[data-health]').getAttribute('data-health')).toBe('unknown');
    expect(await row(page, 'locks/healthy').textContent()).toMatch(/web-1:100:aaaa0001/);
    expect(await page.getByTestId('whoami').textContent()).toMatch(/operator/);
    await page.screenshot({ path: `${ARTIFACTS}/locks-operator.png` });
    await page.close();
  });

  it('shows a holder’s metageneration rising without a reload', async () => {
    const page = await signIn('operator@demo.lockboard', 'operator');
    const version = row(page, 'locks/healthy').getByTestId('generation');
    const first = Number(/metageneration (\d+)/.exec((await version.textContent()) ?? '')?.[1]);
    expect(first).toBeGreaterThan(0);
    await page.waitForFunction(
      (before) =>
        Number(
          /metageneration (\d+)/.exec(
            document.querySelector('[data-lock="locks/healthy"] [data-testid="generation"]')?.textContent ?? '',
          )?.[1],
        ) > before,
      first,
      { timeout: 8_000 },
    );
    await page.close();
  });

  it('force-releases an expired lock: the row disappears and an audit event is written', async () => {
    const page = await signIn('operator@demo.lockboard', 'operator');
    await page.waitForSelector('[data-lock="locks/expired"] [data-health="expired"]', { timeout: 10_000 });
    await page.click('button[aria-label="Force-release locks/expired"]');
    const dialog = page.locator('dialog[open]');
    expect(await dialog.textContent()).toMatch(/Safe to clear/);
    await dialog.locator('textarea').fill('holder crashed (e2e)');
    await dialog.locator('button[type=submit]').click();
    await page.waitForSelector('[data-lock="locks/expired"]', { state: 'detached', timeout: 10_000 });
    expect(await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/expired' })).toBeNull();
    const [files] = await t.storage.bucket(t.bucket).getFiles({ prefix: '.lockboard/audit/' });
    const events = files.map((f) => f.metadata.metadata as Record<string, string>);
    expect(events).toContainEqual(
      expect.objectContaining({
        event: 'force-released',
        lock: 'locks/expired',
        operator: 'operator@demo.lockboard',
        reason: 'holder crashed (e2e)',
      }),
    );
    await page.screenshot({ path: `${ARTIFACTS}/after-release.png` });
    await page.close();
  });

  it('reports a change of holder between opening the dialog and confirming, and leaves the new lock intact', async () => {
    const first = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/handover',
      identity: 'old-holder',
      ttlMs: 6000,
      audit: false,
    });
    const page = await signIn('operator@demo.lockboard', 'operator');
    await page.waitForSelector('[data-lock="locks/handover"]');
    await page.click('button[aria-label="Force-release locks/handover"]');
    const dialog = page.locator('dialog[open]');
    expect(await dialog.getByTestId('dialog-holder').textContent()).toBe('old-holder');
    await first.release();
    const successor = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/handover',
      identity: 'new-holder',
      ttlMs: 6000,
      audit: false,
    });
    held.push(successor);
    await dialog.locator('textarea').fill('looks stuck');
    await dialog.locator('input[aria-label="Type the lock name to confirm"]').fill('locks/handover');
    // its holder refreshes within its interval ([why]: alive): the dialog asks for the extra acknowledgement
    await dialog.getByLabel(/The holder is alive: clearing makes two holders/).check();
    await dialog.locator('button[type=submit]').click();
    const conflict = dialog.getByTestId('release-conflict');
    await conflict.waitFor();
    expect(await conflict.textContent()).toMatch(/changed hands.*new-holder/s);
    await page.screenshot({ path: `${ARTIFACTS}/successor-conflict.png` });
    expect((await getLock({ storage: t.storage, bucket: t.bucket, name: 'locks/handover' }))?.generation).toBe(
      successor.generation,
    );
    await page.keyboard.press('Escape');
    await page.locator('dialog[open]').waitFor({ state: 'detached' });
    await page.close();
  });

  it('shows no release control to a viewer, and the API refuses the viewer with 403', async () => {
    const page = await signIn('viewer@demo.lockboard', 'viewer');
    expect(await page.locator('button[aria-label^="Force-release"]').count()).toBe(0);
    const status = await page.evaluate(async () => {
      const res = await fetch('/api/locks/release', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'locks/healthy', generation: '1', reason: 'x' }),
      });
      return res.status;
    });
    expect(status).toBe(403);
    await page.screenshot({ path: `${ARTIFACTS}/locks-viewer.png` });
    await page.close();
  });

  it('shows churn: the chart, takeovers of crashed holders, failures and force-releases', async () => {
    const page = await signIn('viewer@demo.lockboard', 'viewer');
    await page.goto(`${app.url}/churn`);
    await page.getByTestId('churn-chart').waitFor();
    await page.waitForSelector('[data-testid="churn-chart"] .recharts-bar-rectangle');
    expect(Number(await page.getByTestId('stat-events').textContent())).toBeGreaterThanOrEqual(8);
    expect(await page.getByTestId('takeovers').textContent()).toMatch(/locks\/history.*rescuer/s);
    expect(await page.getByTestId('failures').textContent()).toMatch(/disk full/);
    expect(await page.getByTestId('force-releases').textContent()).toMatch(/holder crashed \(e2e\)/);
    await page.screenshot({ path: `${ARTIFACTS}/churn.png`, fullPage: true });
    await page.close();
  });

  it('shows 10 000 locks a window at a time: counts of all, sort and filter by the server, more on scroll', async () => {
    const page = await signIn('viewer@demo.lockboard', 'viewer');
    await page.goto(`${app.url}/locks?prefix=bulk%2F`);
    await page.waitForSelector('[data-lock="bulk/lock-00000"]', { timeout: 20_000 });
    // the chips count every lock of the source; the browser holds one window of 100 rows
    await expect
      .poll(() => page.getByRole('button', { name: /^All/ }).textContent(), { timeout: 30_000 })
      .toBe('All 10,000');
    expect(await page.getAttribute('[role=table]', 'aria-rowcount')).toBe('101');
    const rendered = await page.locator('[data-lock]').count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(100);
    // scrolling to the end loads the next window by cursor
    await page.getByTestId('lock-rows').evaluate((e) => e.scrollTo(0, e.scrollHeight));
    await expect.poll(() => page.getAttribute('[role=table]', 'aria-rowcount'), { timeout: 15_000 }).toBe('201');
    // a row of that second window stays live: once scrolling settles, the stream follows the window in view
    await page.getByTestId('lock-rows').evaluate((e) => e.scrollTo(0, 150 * 52));
    const row150 = page.locator('[data-lock="bulk/lock-00150"]');
    await row150.waitFor({ timeout: 10_000 });
    await delay(1_500);
    await t.storage
      .bucket(t.bucket)
      .file('bulk/lock-00150')
      .setMetadata({ metadata: { identity: 'bulk-150-renewed' } });
    await expect.poll(() => row150.textContent(), { timeout: 10_000 }).toMatch(/bulk-150-renewed/);
    await page.click('button:has-text("Lock")');
    await page.waitForSelector('[data-lock="bulk/lock-09999"]');
    await page.fill('input[type=search]', 'bulk-4242');
    await page.waitForFunction(() => document.querySelectorAll('[data-lock]').length === 1);
    expect(await page.locator('[data-lock]').getAttribute('data-lock')).toBe('bulk/lock-04242');
    await page.close();
  });

  it('opens the detail page of a lock whose name needs URL encoding', async () => {
    const lock = await acquireLock({
      storage: t.storage,
      bucket: t.bucket,
      name: 'locks/dbt run %2F nightly',
      identity: 'dbt-1',
      ttlMs: 6000,
      audit: false,
    });
    held.push(lock);
    const page = await signIn('viewer@demo.lockboard', 'viewer');
    await page.click('a:has-text("locks/dbt run %2F nightly")');
    await page.waitForSelector('[data-testid="detail-version"]');
    expect(await page.textContent('h1')).toBe('locks/dbt run %2F nightly');
    expect(await page.textContent('main')).toMatch(/dbt-1/);
    // the client's polling of /api/locks/<encoded name> must find the same lock (not "free")
    await page.waitForTimeout(2_500);
    expect(await page.locator('[data-testid="detail-version"]').count()).toBe(1);
    await page.close();
  });

  it('shows the holder timeline of a lock with a known history', async () => {
    const page = await signIn('viewer@demo.lockboard', 'viewer');
    await page.goto(`${app.url}/locks/locks/history`);
    const table = page.getByTestId('timeline');
    await table.waitFor();
    const rows = await table.locator('tbody tr').allTextContents();
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(/rescuer.*released/);
    expect(rows[1]).toMatch(/taken over/);
    expect(rows[2]).toMatch(/second-holder.*failed: disk full/);
    expect(rows[3]).toMatch(/first-holder.*released/);
    await page.screenshot({ path: `${ARTIFACTS}/lock-timeline.png`, fullPage: true });
    await page.close();
  });
});

describe('access to pages (HTTP, as the browser would request them)', () => {
  const SECRET = 'e2e-secret-0123456789abcdef';
  const cookieFor = async (email: string) =>
    `next-auth.session-token=${await encode({ token: { email, name: email, sub: email }, secret: SECRET })}`;
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${app.url}${path}`, { headers, redirect: 'manual' });
  const PAGES = ['/locks', '/locks/locks/healthy', '/churn'];
  const SECRET_DATA = 'web-1:100:aaaa0001';

  it('sends anonymous visitors and garbage cookies to sign-in with the page as return address', async () => {
    for (const path of PAGES) {
      for (const headers of [{}, { cookie: 'next-auth.session-token=garbage' }] as Record<string, string>[]) {
        const r = await get(path, headers);
        expect(r.status, path).toBe(307);
        expect(r.headers.get('location'), path).toBe(`/login?callbackUrl=${encodeURIComponent(path)}`);
      }
    }
  });

  it('answers 403 with no lock data to a signed-in user on no list, for pages and their RSC payloads', async () => {
    const cookie = await cookieFor('mallory@elsewhere.example');
    for (const path of PAGES) {
      for (const extra of [{}, { rsc: '1' }] as Record<string, string>[]) {
        // Next.js redirects an RSC request to its cache-busting `_rsc` URL first: follow it to the payload
        const r = extra.rsc
          ? await fetch(`${app.url}${path}`, { headers: { cookie, ...extra }, redirect: 'follow' })
          : await get(path, { cookie, ...extra });
        const body = await r.text();
        // A page answers 403; a client navigation's RSC payload carries the forbidden boundary instead of the page
        if (extra.rsc) expect(body).toContain('not on the Lockboard viewer or operator list');
        else expect(r.status, path).toBe(403);
        expect(body).not.toContain(SECRET_DATA);
        expect(body).not.toContain('serving');
      }
    }
  });

  it('serves pages to a viewer', async () => {
    const cookie = await cookieFor('viewer@demo.lockboard');
    for (const path of PAGES) expect((await get(path, { cookie })).status, path).toBe(200);
    expect(await (await get('/locks/locks/healthy', { cookie })).text()).toContain(SECRET_DATA);
  });

  it('answers malformed escapes and callback URLs with a 4xx or a page, never a 5xx', async () => {
    const cookie = await cookieFor('viewer@demo.lockboard');
    for (const [path, headers] of [
      ['/locks/locks/%E0%A4%A', { cookie }],
      ['/api/locks/locks/%E0%A4%A', {}],
      ['/api/locks/locks/%E0%A4%A', { cookie }],
      ['/login?callbackUrl=%E0%A4%A', {}],
      ['/login?callbackUrl=javascript:alert(1)', {}],
      ['/api/auth/signin?callbackUrl=garbage%20%00', {}],
      ['/api/auth/signin/demo?callbackUrl=http://[::1', {}],
    ] as const) {
      const r = await get(path, headers);
      expect(r.status, path).toBeLessThan(500);
    }
  });
});

describe('garbage in', () => {
  const rssMb = () => {
    const status = readFileSync(`/proc/${app.child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
  };

  let baselineRss = 0;

  it('answers 1 200 malformed requests across the API with no 5xx', async () => {
    baselineRss = rssMb();
    const cookie = `next-auth.session-token=${await encode({
      token: { email: 'operator@demo.lockboard', sub: 'x' },
      secret: SECRET_FOR_STARTUP,
    })}`;
    const garbage = [
      '%',
      '%E0%A4%A',
      '..%2F..%2F',
      'a%0Ab',
      '%00',
      '\u{1F600}',
      'x'.repeat(3000),
      '%ud800',
      '?',
      '#',
      '"',
      "'",
      '%ED%A0%80',
      '%C0%AF',
      '-1',
      '99999999999999999999',
      'null',
      '%25%',
      '<script>',
      '\\',
      '%20',
      '%FF',
    ];
    const paths = [
      (g: string) => `/api/locks/locks/${g}`,
      (g: string) => `/api/locks?prefix=${g}`,
      (g: string) => `/api/locks?pageToken=${g}`,
      (g: string) => `/api/locks?health=${g}`,
      (g: string) => `/api/audit?from=${g}`,
      (g: string) => `/api/audit?lock=${g}&to=${g}`,
      (g: string) => `/api/audit/summary?from=2026-01-01T00:00:00Z&to=${g}`,
      (g: string) => `/api/metrics?${g}`,
      (g: string) => `/locks/${g}`,
      (g: string) => `/login?callbackUrl=${g}`,
    ];
    const bodies = [
      '',
      'null',
      '[]',
      '{"name":"locks/a\\nb","generation":"1","reason":"x"}',
      '{"name":"locks/a","generation":"99999999999999999999","reason":"x"}',
      '{"name":"locks/\\ud800","generation":"1","reason":"x"}',
      '{"name":"' + 'a'.repeat(2000) + '","generation":"1","reason":"x"}',
      '{"name":1}',
      '{',
    ];
    const statuses: number[] = [];
    const fiveXx: string[] = [];
    let n = 0;
    for (const g of garbage) {
      for (const p of paths) {
        const auths: Record<string, string>[] = [
          {},
          { cookie },
          { cookie: 'next-auth.session-token=garbage' },
          { cookie: cookie.slice(0, -3) },
        ];
        for (const auth of auths) {
          const r = await fetch(`${app.url}${p(g)}`, { headers: auth, redirect: 'manual' });
          statuses.push(r.status);
          if (r.status >= 500) fiveXx.push(`GET ${p(g).slice(0, 80)} → ${r.status}`);
          await r.arrayBuffer();
          n++;
        }
      }
    }
    const posted = await fuzzPosts(
      app.url,
      ['/api/locks/release', '/api/auth/signout', '/api/auth/callback/demo'],
      bodies,
      { cookie, origin: app.url },
      3,
    );
    n += posted.sent;
    fiveXx.push(...posted.fiveXx);
    expect(n).toBeGreaterThanOrEqual(1_000);
    expect(fiveXx).toEqual([]);
    // The console under test also holds a 10 000-lock listing; what matters is that garbage adds nothing lasting.
    console.log(`console RSS: ${baselineRss.toFixed(0)} MB before the fuzz, ${rssMb().toFixed(0)} MB after`);
    expect(rssMb() - baselineRss).toBeLessThan(150);
  }, 180_000);

  it('refuses a 300 MB chunked body, even anonymously, without holding it in memory', async () => {
    // measured from just before the bodies: the fuzz above grows the heap by itself (tens of MB, by its own test)
    const before = rssMb();
    for (const target of ['/api/auth/signout', '/api/locks/release']) {
      let sent = 0;
      const chunk = new Uint8Array(1024 * 1024).fill(120);
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 300) return controller.close();
          sent++;
          controller.enqueue(chunk);
        },
      });
      const r = await fetch(`${app.url}${target}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: app.url },
        body: stream,
        duplex: 'half',
      } as RequestInit).catch((e: unknown) => e);
      if (r instanceof Response) expect(r.status, target).toBeGreaterThanOrEqual(400);
      if (r instanceof Response) expect(r.status, target).toBeLessThan(500);
    }
    console.log(`console RSS after two 300 MB bodies: ${rssMb().toFixed(0)} MB (${before.toFixed(0)} MB before them)`);
    expect(rssMb() - before).toBeLessThan(150); // a body held whole would add 300 MB
  }, 60_000);
});

describe('console start-up and headers', () => {
  it('refuses demo mode with Google sign-in or against real Cloud Storage', async () => {
    const combinations: Record<string, string>[] = [
      { LOCKBOARD_GCS_ENDPOINT: t.emulator!.url, GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' },
      { LOCKBOARD_GCS_ENDPOINT: 'https://storage.googleapis.com' },
      {},
    ];
    for (const extra of combinations) {
      const err = await startConsole(await freePort(), {
        LOCKBOARD_BUCKET: t.bucket,
        NEXTAUTH_SECRET: SECRET_FOR_STARTUP,
        LOCKBOARD_DEMO: '1',
        ...extra,
      }).catch((e: unknown) => e);
      expect((err as Error).message).toMatch(/LOCKBOARD_DEMO demo mode/);
    }
  });

  it('refuses to start without NEXTAUTH_SECRET, naming the variable', async () => {
    const err = await startConsole(await freePort(), {
      LOCKBOARD_BUCKET: t.bucket,
      LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
      NEXTAUTH_SECRET: '',
    }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/exited during start-up/);
    expect((err as Error).message).toMatch(/NEXTAUTH_SECRET must be set to a random string/);
  });

  it('refuses demo sign-in accounts outside demo mode', async () => {
    const err = await startConsole(await freePort(), {
      LOCKBOARD_BUCKET: t.bucket,
      NEXTAUTH_SECRET: 'e2e-secret-0123456789abcdef',
      LOCKBOARD_DEMO: '0',
      LOCKBOARD_DEMO_ACCOUNTS: '1',
    }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /LOCKBOARD_DEMO_ACCOUNTS demo sign-in accounts can only be enabled with LOCKBOARD_DEMO=1/,
    );
  });

  it('sends a fresh nonce CSP per page, without unsafe-inline scripts, with the nonce on every script', async () => {
    const nonceOf = (policy: string | null) => /script-src[^;]*'nonce-([A-Za-z0-9+/=]+)'/.exec(policy ?? '')?.[1];
    const first = await fetch(`${app.url}/login`);
    const policy = first.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/frame-ancestors 'none'/);
    expect(policy).toMatch(/object-src 'none'/);
    expect(/script-src[^;]*/.exec(policy)![0]).not.toMatch(/unsafe-inline|unsafe-eval/);
    const nonce = nonceOf(policy);
    expect(nonce).toBeDefined();
    const scripts = (await first.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    const second = await fetch(`${app.url}/login`);
    expect(nonceOf(second.headers.get('content-security-policy'))).not.toBe(nonce);
    expect(first.headers.get('x-frame-options')).toBe('DENY');
  });

  it('sends no-store and a deny-all CSP on API responses', async () => {
    const api = await fetch(`${app.url}/api/locks`);
    expect(api.status).toBe(401);
    expect(api.headers.get('cache-control')).toMatch(/no-store/);
    expect(api.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('ran every page above without a Content Security Policy violation', () => {
    expect(cspViolations).toEqual([]);
  });
});
