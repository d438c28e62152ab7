// The example rules that name the lock (deploy/prometheus/lockboard-lock-alerts.yml), checked by promtool where it
// is installed: valid, and firing as their own promtool test file says (one alert per lock across replicas).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hasTool } from '../helpers/tools';

const promtool = (args: string[]) => {
  const run = spawnSync('promtool', args, { encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
};

describe.skipIf(!hasTool('promtool'))('the per-lock and webhook alert rules', () => {
  it('are valid rules', () => {
    const check = promtool(['check', 'rules', 'deploy/prometheus/lockboard-lock-alerts.yml']);
    expect(check.output).toMatch(/SUCCESS: 3 rules found/);
    expect(check.status).toBe(0);
  });

  it('fire for the gone holder, the long-held lock and the undelivered webhook', () => {
    const run = promtool(['test', 'rules', 'deploy/prometheus/lockboard-lock-alerts.test.yml']);
    expect(run.output).toMatch(/SUCCESS/);
    expect(run.status).toBe(0);
  });
});
