// The webhooks file: YAML or JSON, every problem named with its file and line, secrets from the environment, and a
// change that does not parse refused while the last good configuration stays in use.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseWebhooksConfig, WebhooksConfigError } from '@/lib/server/notify/config';
import { openWebhooksFile } from '@/lib/server/notify/config-file';
import { until } from './receiver';

const ENV = { LOCKBOARD_WEBHOOK_SECRET: 'secret-0123456789abcdef' };
const GOOD = `webhooks:
  - name: platform-slack
    url: https://hooks.slack.com/services/T000/B000/XXXX
    format: slack
    secret_env: LOCKBOARD_WEBHOOK_SECRET
    events: [force-released, holder-gone]
    locks: ["gs://tf-state/*"]
    after: 15m
  - name: generic
    url: http://127.0.0.1:9000/hook
`;

const problem = (text: string, env: Record<string, string> = ENV): string => {
  try {
    parseWebhooksConfig('/etc/lockboard/webhooks.yaml', text, env);
  } catch (err) {
    expect(err).toBeInstanceOf(WebhooksConfigError);
    return (err as Error).message;
  }
  throw new Error('expected the file to be refused');
};

describe('the webhooks file', () => {
  it('reads YAML with defaults: json, every event, every lock, 10 minutes', () => {
    const { webhooks } = parseWebhooksConfig('w.yaml', GOOD, ENV);
    expect(webhooks[0]).toMatchObject({ format: 'slack', secret: ENV.LOCKBOARD_WEBHOOK_SECRET, after: 900_000 });
    expect(webhooks[1]).toMatchObject({ format: 'json', after: 600_000 });
    expect(webhooks[1]!.locks).toBeUndefined();
    expect(webhooks[1]!.events).toHaveLength(8);
  });

  it('reads JSON', () => {
    const json = JSON.stringify({ webhooks: [{ name: 'j', url: 'https://example.com/h', events: ['taken-over'] }] });
    expect(parseWebhooksConfig('w.json', json, {}).webhooks[0]!.events).toEqual(['taken-over']);
  });

  it('names the file and line of an http URL to another host', () => {
    const text = GOOD.replace('http://127.0.0.1:9000/hook', 'http://example.com/hook');
    expect(problem(text)).toBe(
      '/etc/lockboard/webhooks.yaml:10: webhooks[1].url must be an https URL (http only for 127.0.0.1 or localhost)',
    );
  });

  it('names an unknown event, an unknown field and a bad duration with their lines', () => {
    const text = GOOD.replace('holder-gone]', 'holder-lost]').replace('after: 15m', 'after: soon\n    retries: 3');
    const lines = problem(text).split('\n');
    expect(lines).toContain(
      '/etc/lockboard/webhooks.yaml:6: webhooks[0].events[1] must be one of force-released, release-refused, taken-over, deleted-outside, holder-gone, hold-placed, hold-ended, hold-expired',
    );
    expect(lines).toContain('/etc/lockboard/webhooks.yaml:8: webhooks[0].after must be a duration like 10m or 1h');
    expect(lines).toContain(
      '/etc/lockboard/webhooks.yaml:9: webhooks[0].retries is not a field (name, url, format, secret_env, events, locks, after)',
    );
  });

  it('names a secret_env that is not set, never its value', () => {
    expect(problem(GOOD, {})).toBe(
      '/etc/lockboard/webhooks.yaml:5: webhooks[0].secret_env names LOCKBOARD_WEBHOOK_SECRET, which is not set',
    );
  });

  it('names the line of a YAML syntax error', () => {
    expect(problem('webhooks:\n  - name: a\n    url: [unclosed\n')).toMatch(/^\/etc\/lockboard\/webhooks\.yaml:[34]: /);
  });

  it('refuses two webhooks of one name', () => {
    expect(problem(GOOD.replace('name: generic', 'name: platform-slack'))).toMatch(
      /:9: webhooks\[1\]\.name platform-slack is named twice/,
    );
  });
});

describe('reloading the webhooks file', () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('follows a good change and refuses a bad one, keeping the last good webhooks', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lockboard-webhooks-'));
    const file = join(dir, 'webhooks.yaml');
    writeFileSync(file, GOOD);
    const lines: string[] = [];
    const w = openWebhooksFile(file, ENV, { intervalMs: 20, log: (l) => lines.push(l) });
    try {
      expect(w.current().webhooks.map((h) => h.name)).toEqual(['platform-slack', 'generic']);
      await new Promise((ok) => setTimeout(ok, 100)); // the watcher's first look at the file
      writeFileSync(file, GOOD.replace('name: generic', 'name: generic-2'));
      await until(() => w.current().webhooks[1]?.name === 'generic-2', 'the reload');
      writeFileSync(file, `${GOOD}  - name: broken\n    url: ftp://x\n`);
      await until(() => w.refused() !== undefined, 'the refusal');
      expect(w.current().webhooks.map((h) => h.name)).toEqual(['platform-slack', 'generic-2']);
      expect(w.refused()).toMatch(/webhooks\.yaml:12: webhooks\[2\]\.url/);
      expect(lines.at(-1)).toMatch(/refused, keeping the last good webhooks/);
    } finally {
      w.stop();
    }
  });

  it('stops the start when the file is missing', () => {
    expect(() => openWebhooksFile('/nonexistent/webhooks.yaml', ENV)).toThrow(
      '/nonexistent/webhooks.yaml: cannot be read (ENOENT)',
    );
  });
});
