// The demo's accounts: every one named once, from one list, a releaser among them with a releaser grant, and the
// README, the banner and the shipped access example agreeing; the console's log starts fresh each run.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountLines } from '@/lib/demo/banner';
import { freshLog } from '@/lib/demo/console';
import { DEMO_ACCOUNTS, DEMO_GRANTS } from '@/lib/server/auth/demo-accounts';
import { parseGrants } from '@/lib/server/auth/grants';

const EMAILS = [
  'operator@demo.lockboard',
  'releaser@demo.lockboard',
  'viewer@demo.lockboard',
  'ci-team@demo.lockboard',
];

describe('the demo accounts', () => {
  it('are one of each role, a releaser included, each granted what its line says', () => {
    expect(DEMO_ACCOUNTS.map((a) => a.email)).toEqual(EMAILS);
    expect(new Set(DEMO_ACCOUNTS.map((a) => a.role))).toEqual(new Set(['operator', 'releaser', 'viewer']));
    expect(DEMO_GRANTS.find((g) => g.who.includes('releaser@demo.lockboard'))).toEqual({
      who: ['releaser@demo.lockboard'],
      role: 'releaser',
      locks: ['*'],
    });
  });

  it('are each named once in the banner, with password and role', () => {
    const lines = accountLines();
    expect(lines).toHaveLength(EMAILS.length);
    for (const a of DEMO_ACCOUNTS) {
      const mine = lines.filter((l) => l.includes(a.email));
      expect(mine, a.email).toHaveLength(1);
      expect(mine[0]).toContain(`${a.email} / ${a.password}`);
      expect(mine[0]).toContain(`(${a.role}:`);
    }
  });

  it('are each in the README and granted alike by deploy/access.example.yaml', () => {
    const readme = readFileSync('README.md', 'utf8');
    const file = parseGrants(readFileSync('deploy/access.example.yaml', 'utf8'), 'deploy/access.example.yaml');
    for (const a of DEMO_ACCOUNTS) {
      expect(readme, a.email).toContain(`\`${a.email}\``);
      const grant = file.grants.find((g) => g.who.includes(a.email));
      expect(grant, a.email).toEqual({ who: [a.email], role: a.role, locks: a.locks });
    }
  });
});

describe("the demo console's log", () => {
  it('starts fresh each run, keeping the previous run as console.log.1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lb-log-'));
    const file = join(dir, 'console.log');
    freshLog(file); // a first run: nothing to keep
    expect(existsSync(`${file}.1`)).toBe(false);
    writeFileSync(file, 'run 1\n');
    freshLog(file);
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(`${file}.1`, 'utf8')).toBe('run 1\n');
    writeFileSync(file, 'run 2\n');
    freshLog(file);
    expect(readFileSync(`${file}.1`, 'utf8')).toBe('run 2\n');
  });
});
