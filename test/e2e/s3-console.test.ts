// S3 beside GCS in the console, in Chromium: the source selector and the table show the store and the S3 version,
// the lock page shows Terraform's S3 lock in its own terms, and an operator clears it through the release dialog
// (which explains S3's rule) with one DeleteObject conditioned on the ETag seen. The browser console stays clean.
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageProblems } from '../helpers/page-checks';
import { startEmulator, type Emulator } from '@/lib/emulator';
import { acquireLock, type Lock } from '@/lib/lock';
import { acquireS3Lock, type S3Lock } from '@/lib/lock/stores/s3';
import { Storage } from '@google-cloud/storage';
import { ARTIFACTS } from '../helpers/browser';
import { startBrowserConsole, type BrowserConsole } from '../helpers/console-browser';
import { s3ClientFor } from '../helpers/s3';

const TFLOCK = 'envs/prod/terraform.tfstate.tflock';
let emulator: Emulator;
let c: BrowserConsole;
let gcs: Lock;
let s3Lock: S3Lock;

beforeAll(async () => {
  emulator = await startEmulator({ buckets: ['ci-locks'], s3: { buckets: ['tf-state', 'states'] } });
  // a prefix whose keys sort 5 200 Terraform states before its one lock: past the first screen's bound
  const now = Date.now();
  for (let i = 0; i < 5200; i++) {
    const key = `env-${String(i).padStart(5, '0')}/terraform.tfstate`;
    emulator.s3!.store.put(
      'states',
      key,
      Buffer.from('{"version":4}'),
      { contentType: 'application/json', metadata: {} },
      {},
      now,
    );
  }
  const s3 = s3ClientFor(emulator.s3!.url);
  await s3.send(
    new PutObjectCommand({ Bucket: 'tf-state', Key: 'envs/prod/terraform.tfstate', Body: '{"version":4}' }),
  );
  await s3.send(
    new PutObjectCommand({
      Bucket: 'states',
      Key: 'zz/terraform.tfstate.tflock',
      Body: JSON.stringify({ ID: 'tf-zz', Operation: 'OperationTypeApply', Who: 'last@ci' }),
    }),
  );
  await s3.send(
    new PutObjectCommand({
      Bucket: 'tf-state',
      Key: TFLOCK,
      Body: JSON.stringify({ ID: 'tf-9f8e', Operation: 'OperationTypeApply', Who: 'crashed@laptop' }),
      IfNoneMatch: '*',
    }),
  );
  s3Lock = await acquireS3Lock({ client: s3, bucket: 'tf-state', name: 'jobs/etl', identity: 'etl-1', ttlMs: 30_000 });
  const storage = new Storage({ apiEndpoint: emulator.url, projectId: 'test' });
  gcs = await acquireLock({ storage, bucket: 'ci-locks', name: 'locks/deploy', identity: 'runner-1', ttlMs: 60_000 });
  c = await startBrowserConsole({
    LOCKBOARD_SOURCES: 'gs://ci-locks/locks/,s3://tf-state/,s3://states/',
    LOCKBOARD_GCS_ENDPOINT: emulator.url,
    AWS_ENDPOINT_URL_S3: emulator.s3!.url,
  });
}, 180_000);

afterAll(async () => {
  await gcs?.release();
  await s3Lock?.release().catch(() => undefined);
  await c?.close();
  await emulator?.close();
});

const problems = (page: Page): string[] => pageProblems(page, { warnings: true });

describe('S3 sources in the console', () => {
  it('lists S3 locks beside GCS ones with their store and version, and clears a Terraform S3 lock safely', async () => {
    const context = await c.contextAs('operator@demo.lockboard');
    const page = await context.newPage();
    const seen = problems(page);
    await page.goto(`${c.app.url}/locks?source=all`, { waitUntil: 'networkidle' });
    expect(await page.getByLabel('Source').locator('option').allTextContents()).toContain('s3://tf-state/');
    const tf = page.locator(`[data-lock="${TFLOCK}"]`);
    await tf.filter({ hasText: 'crashed@laptop' }).waitFor(); // listed first, its body read after (metadata first)
    expect(await tf.textContent()).toMatch(/crashed@laptop/);
    expect(await tf.textContent()).toMatch(/s3 · terraform/);
    expect(await tf.getByTestId('generation').textContent()).toMatch(/^ETag [0-9a-f]{8}$/);
    expect(await page.locator('[data-lock="jobs/etl"]').getByTestId('generation').textContent()).toMatch(
      /^ETag [0-9a-f]{8} · token \d+$/,
    );
    expect(await page.locator('[data-lock="locks/deploy"]').textContent()).toContain('runner-1');

    // The lock page: Terraform's terms and the equivalent force-unlock
    await tf.getByRole('link').click();
    await page.waitForURL(/\/locks\/envs\/prod\/terraform\.tfstate\.tflock\?bucket=s3%3A%2F%2Ftf-state/);
    await page.getByText('terraform force-unlock tf-9f8e', { exact: true }).waitFor();
    expect(await page.getByTestId('detail-version').textContent()).toMatch(/^ETag /);

    // Release through the dialog: S3's rule explained, the typed name required (no TTL), one conditional delete
    await page.goto(`${c.app.url}/locks?source=${encodeURIComponent('s3://tf-state/')}`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: `Force-release ${TFLOCK}` }).click();
    expect(await page.getByTestId('dialog-store-rule').textContent()).toMatch(/DeleteObject with If-Match/);
    await page.getByLabel(/^Reason/).fill('apply crashed on a laptop');
    await page.getByLabel('Type the lock name to confirm').fill(TFLOCK);
    await page.getByRole('button', { name: 'Force-release', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Released ${TFLOCK}` })
      .waitFor({ timeout: 10_000 });
    await page.screenshot({ path: `${ARTIFACTS}/s3-released.png` });
    const gone = await s3ClientFor(emulator.s3!.url)
      .send(new GetObjectCommand({ Bucket: 'tf-state', Key: TFLOCK }))
      .then(
        () => false,
        (err: { $metadata: { httpStatusCode: number } }) => err.$metadata.httpStatusCode === 404,
      );
    expect(gone).toBe(true);
    expect(seen).toEqual([]);
    await context.close();
  }, 90_000);

  it('paints a prefix of data as still being listed, never as empty, then shows its lock', async () => {
    const context = await c.contextAs('viewer@demo.lockboard');
    const url = `${c.app.url}/locks?source=${encodeURIComponent('s3://states/')}`;
    // the server-rendered first screen, before any stream: its pass still listing (with how far it is) or done
    // with the lock, never "no locks" for want of a moment
    const html = await (await context.request.get(url)).text();
    expect(html).toMatch(/Listing s3:\/\/states\/: listed [\d,]+|zz\/terraform\.tfstate\.tflock/);
    expect(html).not.toMatch(/No locks in [^<]* right now/);
    const page = await context.newPage();
    const seen = problems(page);
    await page.goto(url);
    await page.locator('[data-lock="zz/terraform.tfstate.tflock"]').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('skipped-count').textContent()).toMatch(/^5,200 other objects/);
    expect(await page.getByTestId('first-screen').count()).toBe(0);
    expect(seen).toEqual([]);
    await context.close();
  }, 60_000);
});
