// The example alert rules (deploy/prometheus/lockboard-alerts.yml) checked by Prometheus's own promtool: valid rules,
// and against series scraped from a running console's /api/metrics (an expired lock, a lock held past
// LOCKBOARD_LONG_HELD, an empty source, a source that cannot be read), each alert fires for the right source only.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLock, type Lock } from '@/lib/lock';
import { freePort } from '../helpers/browser';
import { startTestEmulator, type Target } from '../helpers/gcs';
import { freezeHolder } from '../helpers/lock';
import { delay } from '../helpers/requests';
import { SECRET } from '../helpers/routes';
import { readFileSync } from 'node:fs';

const RULES = resolve('deploy/prometheus/lockboard-alerts.yml');
const TOKEN = 'alert-rules-token-0123456789';
let t: Target;
let metrics: typeof import('@/app/api/metrics/route');
const held: Lock[] = [];
let unreachable: string;

beforeAll(async () => {
  t = await startTestEmulator({ buckets: ['test-bucket', 'tf-state'] });
  unreachable = `redis://127.0.0.1:${await freePort()}/0`; // nothing listens there
  Object.assign(process.env, {
    LOCKBOARD_SOURCES: `gs://test-bucket/locks/,gs://tf-state/,${unreachable}`,
    LOCKBOARD_GCS_ENDPOINT: t.emulator!.url,
    LOCKBOARD_METRICS_TOKEN: TOKEN,
    LOCKBOARD_LONG_HELD: '2s',
    LOCKBOARD_VIEWERS: 'viewer@example.com',
    NEXTAUTH_SECRET: SECRET,
  });
  const base = { storage: t.storage, bucket: 'test-bucket' };
  held.push(await acquireLock({ ...base, name: 'locks/alive', ttlMs: 60_000 }));
  const dead = await acquireLock({ ...base, name: 'locks/dead', ttlMs: 1_000 });
  freezeHolder(dead); // a holder that stopped refreshing: expired a second later, never released
  // past the dead lock's expiry, and the live one held past LOCKBOARD_LONG_HELD, with room to spare: the console's
  // first reading of GCS's clock is a Date header floored to its second, so it may run up to 1 s behind
  await delay(4_000);
  metrics = await import('@/app/api/metrics/route');
}, 60_000);
afterAll(async () => {
  await Promise.allSettled(held.map((l) => l.release()));
  await t?.close();
});

/** Every sample of the series the rules read, from one scrape, as promtool input held for 30 minutes. */
function inputSeries(exposition: string) {
  return exposition
    .split('\n')
    .filter((line) => /^lockboard_(locks|source_up)\{/.test(line))
    .map((line) => {
      const cut = line.lastIndexOf(' ');
      return { series: line.slice(0, cut), values: `${line.slice(cut + 1)}x30` };
    });
}

function promtool(args: string[]) {
  const run = spawnSync('promtool', args, { encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('the example Prometheus alert rules', () => {
  it('are valid rules', () => {
    const check = promtool(['check', 'rules', RULES]);
    expect(check.output).toMatch(/SUCCESS: 4 rules found/);
    expect(check.status).toBe(0);
  });

  it('fire for the expired lock, the long-held lock and the unreadable source, each on its own source', async () => {
    const res = await metrics.GET(
      new Request('http://console.test/api/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }),
    );
    expect(res.status).toBe(200);
    const series = inputSeries(await res.text());
    expect(series.length).toBeGreaterThan(3);
    const rules = readFileSync(RULES, 'utf8');
    /** The rule's description as Prometheus renders a folded block (lines joined by spaces). */
    const description = (name: string) => {
      const block = /description: >-\n((?: {12}.*\n)+)/.exec(rules.slice(rules.indexOf(`alert: ${name}`)))![1]!;
      return block
        .trim()
        .split('\n')
        .map((l) => l.trim())
        .join(' ');
    };
    const alert = (name: string, labels: Record<string, string>, severity: string, summary: string) => ({
      eval_time: '20m',
      alertname: name,
      exp_alerts: [
        { exp_labels: { ...labels, severity }, exp_annotations: { summary, description: description(name) } },
      ],
    });
    const locks = { store: 'gcs', bucket: 'test-bucket', prefix: 'locks/' }; // Prometheus drops empty labels
    const redis = { store: 'redis', bucket: unreachable };
    const tests = {
      rule_files: [RULES],
      evaluation_interval: '1m',
      tests: [
        {
          interval: '1m',
          input_series: series,
          alert_rule_test: [
            alert(
              'LockboardLockExpired',
              locks,
              'warning',
              '1 expired lock(s) still present in gcs test-bucket under locks/',
            ),
            alert(
              'LockboardLockHeldTooLong',
              locks,
              'warning',
              '1 lock(s) held longer than LOCKBOARD_LONG_HELD in gcs test-bucket under locks/',
            ),
            alert('LockboardSourceUnreadable', redis, 'critical', `Lockboard cannot read redis ${unreachable}`),
            { eval_time: '20m', alertname: 'LockboardMetricsAbsent', exp_alerts: [] },
          ],
        },
      ],
    };
    const dir = mkdtempSync(join(tmpdir(), 'lockboard-rules-'));
    const file = join(dir, 'tests.yml');
    writeFileSync(file, JSON.stringify(tests, null, 2)); // JSON is YAML
    const run = promtool(['test', 'rules', file]);
    expect(run.output).toMatch(/SUCCESS/);
    expect(run.status).toBe(0);
  });
});
